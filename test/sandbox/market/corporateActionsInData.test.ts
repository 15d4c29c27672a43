import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { readDailyBars, readManifest } from "./support/market.ts";

describe("corporate actions show in the equity data", () => {
  const manifest = readManifest();
  const daily = readDailyBars().sort(["ASID", "TradeDate"]);
  const closes = (asid: number) =>
    daily.filter(pl.col("ASID").eq(asid)).select(pl.col("TradeDate").cast(pl.Utf8), "Ticker", "OpenPrice", "ClosePrice").toRecords();

  it("jumps the price by the split ratio on the ex-date (3-for-2 down, 1-for-4 reverse up)", () => {
    for (const a of manifest.corporateActions) {
      if (a.kind !== "split") continue;
      const rows = closes(a.asid);
      const ex = rows.findIndex((r) => r.TradeDate === a.exDate);
      const jump = (rows[ex].OpenPrice as number) / (rows[ex - 1].ClosePrice as number);
      const ratio = a.oldShares / a.newShares;
      expect(jump / ratio, `${a.asid} on ${a.exDate}`).toBeGreaterThan(0.93);
      expect(jump / ratio, `${a.asid} on ${a.exDate}`).toBeLessThan(1.07);
    }
  });

  it("keeps the ASID and changes the ticker on the ticker-change date", () => {
    const change = manifest.corporateActions.find((a) => a.kind === "ticker-change")!;
    for (const r of closes(change.asid)) {
      expect(r.Ticker).toBe((r.TradeDate as string) < change.date ? change.oldTicker : change.newTicker);
    }
  });

  it("stops the merger target on the effective date, trading near the deal value before it", () => {
    const merger = manifest.corporateActions.find((a) => a.kind === "merger")!;
    const target = closes(merger.targetAsid);
    expect(target.every((r) => (r.TradeDate as string) < merger.effectiveDate)).toBe(true);
    const acquirer = Object.fromEntries(closes(merger.acquirerAsid).map((r) => [r.TradeDate, r.ClosePrice as number]));
    for (const r of target) {
      const deal = merger.shareRatio * acquirer[r.TradeDate as string] + merger.cashPerShare;
      expect((r.ClosePrice as number) / deal).toBeGreaterThan(0.94);
      expect((r.ClosePrice as number) / deal).toBeLessThan(1.01);
    }
  });
});
