import pl from "nodejs-polars";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest, tinyMarketDir } from "../support/market.ts";
import { readRecords, secMasterByTicker } from "./support.ts";

const RANGE = /^\d{8}:\d{8}$/;
const compact = (d: string) => d.replaceAll("-", "");

describe("the option and equity reference datasets", () => {
  const manifest = readManifest();
  const days = manifest.tradingDays.map((d) => d.date);
  const master = secMasterByTicker();
  const settlements = readRecords("occ-eq-spec-settl");
  const lookup = readRecords("eq-lookup-files");
  const action = <K extends string>(kind: K) =>
    manifest.corporateActions.find((a) => a.kind === kind)! as Extract<typeof manifest.corporateActions[number], { kind: K }>;

  it("holds one security-master record per root traded, with well-formed trade-date ranges", () => {
    const traded = new Set(readRecords("opt-open-interest").map((r) => r.Ticker));
    expect(new Set(master.keys())).toEqual(traded);
    expect(new Set([...master.values()].map((r) => r.ASID)).size).toBe(master.size);
    for (const r of master.values()) {
      for (const range of [...r.OptionTradeDates, ...r.UnderTradeDates]) expect(range).toMatch(RANGE);
      expect(r.OptionListStatus).toBe(r.OptionTradeDates.at(-1).endsWith(":29991231") ? "L" : "D");
      expect(r.OptionStyle).toBe(r.UnderType === "index" ? "E" : "A");
      expect(r.OptionType).toBe("vanilla");
    }
    expect(master.get("SPXW")).toMatchObject({
      UnderTicker: "SPX",
      MarketClose: "16:15",
      SettlType: "cash-pm",
      SettlTicker: "SPX",
      IsWeekly: "Y",
    });
    const greeksRoots = new Set(readRecords("opt-greeks-daily").map((r) => r.Ticker));
    for (const [ticker, r] of master) expect(r.GreeksCoverage).toBe(greeksRoots.has(ticker) ? "Y" : "N");
  });

  it("delists the renamed and the merged roots the trading day before, and lists their successors", () => {
    const change = action("ticker-change"), merger = action("merger");
    const dayBefore = (d: string) => compact(days[days.indexOf(d) - 1]);
    expect(master.get(change.oldTicker)).toMatchObject({ OptionListStatus: "D", UnderSecId: change.asid });
    expect(master.get(change.oldTicker)!.OptionTradeDates.at(-1)).toMatch(new RegExp(`:${dayBefore(change.date)}$`));
    expect(master.get(change.newTicker)).toMatchObject({
      OptionListStatus: "L",
      UnderSecId: change.asid,
      OptionTradeDates: [`${compact(change.date)}:29991231`],
      UnderTradeDates: [`${compact(change.date)}:29991231`],
    });
    expect(master.get("HES")!.OptionTradeDates.at(-1)).toMatch(new RegExp(`:${dayBefore(merger.effectiveDate)}$`));
    expect(master.get("HES1")).toMatchObject({
      OptionListStatus: "L",
      UnderTicker: "CVX",
      UnderSecId: merger.acquirerAsid,
      OptionTradeDates: [`${compact(merger.effectiveDate)}:29991231`],
    });
  });

  it("gives every adjusted root settlement records whose deliverables match its corporate action", () => {
    const adjusted = [...master.keys()].filter((t) => /\d$/.test(t));
    expect(adjusted.sort()).toEqual(["HES1", "ODFL1", "SIRI1"]);
    const tickerOf = (asid: number) => manifest.securities.find((s) => s.asid === asid)!.ticker;
    for (const root of adjusted) {
      const records = settlements.filter((s) => s.OptionTicker === root).sort((a, b) => a.DeliveryComponents - b.DeliveryComponents);
      expect(records.every((s) => s.TotalDelivComponents === records.length && s.StrikeCurrency === "USD")).toBe(true);
      expect(records.map((s) => s.DeliveryComponents)).toEqual(records.map((_, k) => k + 1));
      expect(records.reduce((sum, s) => sum + s.StrikePercent, 0)).toBe(100);
      const a = manifest.corporateActions.find((x) =>
        (x.kind === "split" && tickerOf(x.asid) === root.slice(0, -1)) ||
        (x.kind === "merger" && tickerOf(x.targetAsid) === root.slice(0, -1))
      )!;
      if (a.kind === "split") {
        expect(records.map((s) => [s.ProcessDate, s.UnderTicker, s.SettlementMethod, s.DeliverableUnits, s.CashAmount])).toEqual([[
          a.exDate,
          tickerOf(a.asid),
          "physical",
          (100 * a.newShares) / a.oldShares,
          0,
        ]]);
      } else if (a.kind === "merger") {
        // 102.5 acquirer shares per contract: 102 delivered, the half share paid in cash at the acquirer's price that day.
        const whole = Math.floor(100 * a.shareRatio);
        const bars = pl.readParquet(join(tinyMarketDir(), `eq-taq-1min/aggregation_logic=core/TradeDate=${a.effectiveDate}.parquet`))
          .filter(pl.col("Ticker").eq(pl.lit(tickerOf(a.acquirerAsid))));
        const close = manifest.tradingDays.find((d) => d.date === a.effectiveDate)!.closeMinute - 1 - 240;
        const mid = ((bars.getColumn("CloseBidPrice").get(close) as number) + (bars.getColumn("CloseAskPrice").get(close) as number)) / 2;
        expect(records.map((s) => [s.ProcessDate, s.UnderTicker, s.UnderType, s.DeliverableUnits])).toEqual([[
          a.effectiveDate,
          "CVX",
          "stock",
          whole,
        ], [a.effectiveDate, "USD", "cash", 0]]);
        // Rounded to the cent: a half-cent mid (a one-tick spread) can put it half a cent away.
        expect(Math.abs(records[1].CashAmount - (100 * a.cashPerShare + (100 * a.shareRatio - whole) * mid))).toBeLessThanOrEqual(
          0.005 + 1e-9,
        );
      }
    }
  });

  it("resolves the ticker change on both sides of its date through the lookup files", () => {
    const change = action("ticker-change");
    /** The SecId a ticker named on a date: its record with the earliest end date on or after it. */
    const resolve = (ticker: string, date: string) =>
      lookup.filter((r) => r.Ticker === ticker && r.EndDate >= date).sort((a, b) => (a.EndDate < b.EndDate ? -1 : 1))[0]?.SecId;
    const before = days[days.indexOf(change.date) - 1];
    expect(resolve(change.oldTicker, before)).toBe(change.asid);
    expect(resolve(change.oldTicker, change.date)).toBeUndefined();
    expect(resolve(change.newTicker, change.date)).toBe(change.asid);
    const dayBefore = new Date(Date.parse(`${change.date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(lookup.filter((r) => r.SecId === change.asid).map((r) => [r.Ticker, r.EndDate])).toEqual([[change.oldTicker, dayBefore], [
      change.newTicker,
      "2999-12-31",
    ]]);
    // Every ticker of the equity data resolves, on its trading day, to the ASID it traded under.
    const daily = pl.scanParquet(join(tinyMarketDir(), "eq-daily-ohlc/*.parquet")).select(
      pl.col("TradeDate").cast(pl.Utf8),
      "Ticker",
      "ASID",
    ).collectSync().toRecords();
    for (const d of daily) expect(resolve(d.Ticker as string, d.TradeDate as string), `${d.Ticker} ${d.TradeDate}`).toBe(d.ASID);
  });
});
