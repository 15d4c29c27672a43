/**
 * The ticker-day plan and its notes on the tiny market (in-process sandbox, data from
 * 2023-11-20 to 2023-11-28): a rename followed across (SQ to XYZ from 2023-11-27, asked by
 * either name), a holiday (Thanksgiving), a delisting by merger (HES after 2023-11-23), splits
 * (ODFL 3-for-2, SIRI 1-for-4), dates outside the data, an unknown ticker; and the panel the
 * plan feeds, with a ticker-day that has no ticks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { QueryError, splitRatio, tickerDays, tickSpreadPanel } from "../../../workbench/mod.ts";
import { sandboxWorkbench } from "./support/sandboxWorkbench.ts";

const TINY_DAYS = ["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-24", "2023-11-27", "2023-11-28"];

describe("tickerDays on the tiny market", () => {
  const connected = sandboxWorkbench();

  it("follows a rename both ways, with a note naming the days under each name", async () => {
    const plan = await tickerDays(connected.wb, ["SQ", "XYZ"], "2023-11-20", "2023-11-28");
    expect(plan.days).toEqual(TINY_DAYS);
    expect(plan.units.filter((u) => u.asked === "SQ").map((u) => u.ticker)).toEqual(["SQ", "SQ", "SQ", "SQ", "XYZ", "XYZ"]);
    expect(plan.units.filter((u) => u.asked === "XYZ").map((u) => u.ticker)).toEqual(["SQ", "SQ", "SQ", "SQ", "XYZ", "XYZ"]);
    expect(plan.notes).toContain(
      "SQ was renamed XYZ from 2023-11-27 (one security, SecId 100013): its days from then are fetched as XYZ, so SQ's figures cover 6 trading days of 6, not the 4 days under SQ alone.",
    );
    expect(plan.notes).toContain(
      "XYZ was SQ until 2023-11-26 (one security, SecId 100013): its days before 2023-11-27 are fetched as SQ, so XYZ's figures cover 6 trading days of 6, not the 2 days under XYZ alone.",
    );
    expect(plan.notes).toContain("2023-11-23 is Thanksgiving Day, an exchange holiday: no trading, so no data that day.");
  });

  it("names a delisting by merger, splits, dates outside the data and an unknown ticker", async () => {
    const plan = await tickerDays(connected.wb, ["HES", "ODFL", "SIRI", "NOPE"], "2023-11-01", "2024-01-02");
    expect(plan.days).toEqual(TINY_DAYS);
    expect(plan.units.filter((u) => u.asked === "HES").map((u) => u.date)).toEqual(["2023-11-20", "2023-11-21", "2023-11-22"]);
    expect(plan.notes).toEqual([
      "2023-11-23 is Thanksgiving Day, an exchange holiday: no trading, so no data that day.",
      "2023-12-25 is Christmas Day, an exchange holiday: no trading, so no data that day.",
      "2024-01-01 is New Year's Day, an exchange holiday: no trading, so no data that day.",
      "eq-taq holds data from 2023-11-20 to 2023-11-28: 36 trading days of the range are outside it, so the study covers 2023-11-20 to 2023-11-28.",
      expect.stringMatching(
        /^HES stops trading after 2023-11-23, its last day in the equity lookup file \(a merger: OCC's adjusted option root HES1 delivers \d+ CVX \+ [\d.]+ USD per contract of 100 old shares\): 3 trading days of 6 can be measured\.$/,
      ),
      "ODFL split 3-for-2 (its adjusted option root ODFL1 delivers 150 ODFL) with ex date 2023-11-21: prices and share counts change that day. Spreads in basis points and the dollar-size buckets are unaffected; a size in shares would not be.",
      "SIRI split 1-for-4 (its adjusted option root SIRI1 delivers 25 SIRI) with ex date 2023-11-22: prices and share counts change that day. Spreads in basis points and the dollar-size buckets are unaffected; a size in shares would not be.",
      "NOPE is not in the equity lookup file (eq-lookup-files): no data to measure for it.",
    ]);
    expect(plan.units.some((u) => u.asked === "NOPE")).toBe(false);
  });

  it("a range of holidays and weekends only, or wholly outside the data: no day, and a note that says so", async () => {
    const holiday = await tickerDays(connected.wb, ["AAPL"], "2023-11-23", "2023-11-23");
    expect(holiday).toEqual({
      days: [],
      units: [],
      notes: [
        "2023-11-23 is Thanksgiving Day, an exchange holiday: no trading, so no data that day.",
        "No trading day from 2023-11-23 to 2023-11-23: nothing to measure.",
      ],
    });
    const outside = await tickerDays(connected.wb, ["AAPL"], "2024-03-04", "2024-03-05");
    expect(outside.units).toEqual([]);
    expect(outside.notes).toEqual([
      "eq-taq holds data from 2023-11-20 to 2023-11-28: 2 trading days of the range (all of them) are outside it: nothing to measure.",
    ]);
    await expect(tickerDays(connected.wb, ["AAPL"], "2023-11-28", "2023-11-20")).rejects.toThrow(QueryError);
  });

  it("the panel measures the plan's ticker-days and lists one without ticks", async () => {
    const plan = await tickerDays(connected.wb, ["HES"], "2023-11-22", "2023-11-24");
    const units = [...plan.units, { asked: "HES", ticker: "HES", date: "2023-11-24" }];
    const panel = await tickSpreadPanel(connected.wb, units, { decaySeconds: [60] });
    expect(panel.empty).toEqual([{
      unit: { asked: "HES", ticker: "HES", date: "2023-11-24" },
      reason: "eq-taq from 2023-11-24: HES maps to no security after 2023-11-23 (delisted or merged)",
    }]);
    expect([...new Set(panel.totals.getColumn("TradeDate").toArray())]).toEqual(["2023-11-22"]);
    expect(panel.ticks).toBeGreaterThan(1000);
  });

  it("with a lake: the same day totals, and a second run reads the files without a tick request", async () => {
    const lake = mkdtempSync(join(tmpdir(), "tick-lake-"));
    try {
      const plan = await tickerDays(connected.wb, ["SQ"], "2023-11-24", "2023-11-27");
      const sorted = (f: pl.DataFrame) => f.sort(["Ticker", "TradeDate", "Venue", "SizeBucket", "BucketMinute"]);
      const direct = await tickSpreadPanel(connected.wb, plan.units, { decaySeconds: [60] });
      const first = await tickSpreadPanel(connected.wb, plan.units, { decaySeconds: [60], lake });
      expect(first.downloads.map((d) => d.fetched)).toEqual([1, 1]); // SQ's day, then XYZ's
      expect(sorted(first.totals).toRecords()).toEqual(sorted(direct.totals).toRecords());
      const again = await tickSpreadPanel(connected.wb, plan.units, { decaySeconds: [60], lake });
      expect(again.downloads.map((d) => d.fetched)).toEqual([0, 0]);
      expect(sorted(again.totals).toRecords()).toEqual(sorted(direct.totals).toRecords());
      expect(again.ticks).toBe(direct.ticks);
    } finally {
      rmSync(lake, { recursive: true, force: true });
    }
  });

  it("writes split factors as ratios", () => {
    expect([1.5, 0.25, 2, 1.25].map(splitRatio)).toEqual(["3-for-2", "1-for-4", "2-for-1", "5-for-4"]);
  });
});
