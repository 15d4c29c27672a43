/** Reading the tiny market's option and reference datasets the way a consumer would. */
import pl from "nodejs-polars";
import { join } from "node:path";
import type { Manifest } from "../../../../sandbox/market/manifest.ts";
import type { OptionTerms } from "../../../../sandbox/market/options/contract.ts";
import { RISK_FREE_RATE } from "../../../../sandbox/market/options/rates.ts";
import { dividendYield } from "../../../../sandbox/market/ticks/dividends.ts";
import { tinyMarketDir } from "../support/market.ts";

/** One dataset row, column name → value: untyped on purpose, as tests read columns of every type. */
// deno-lint-ignore no-explicit-any
export type Row = Record<string, any>;

/** Every row of a dataset, dates as `YYYY-MM-DD` strings. */
export function readRecords(textId: string, dir = tinyMarketDir()): Row[] {
  const frame = pl.scanParquet(join(dir, textId, "*.parquet")).collectSync();
  const dates = frame.columns.filter((c) => frame.getColumn(c).dtype.equals(pl.Date));
  return frame.withColumns(...dates.map((c) => pl.col(c).cast(pl.Utf8))).toRecords();
}

/** The security master by option root ticker. */
export function secMasterByTicker(dir = tinyMarketDir()): Map<string, Row> {
  return new Map(readRecords("opt-sec-master", dir).map((r) => [r.OptionTicker as string, r]));
}

/** The terms of an opt-greeks-daily row, with the rate and the dividend yield of its underlying. */
export function termsOf(row: Row, master: Map<string, Row>): OptionTerms {
  return {
    call: row.CallPut === "C",
    american: row.OptionStyle === "A",
    spot: row.UnderLastMidPrice,
    strike: row.Strike,
    years: row.YearsToMaturity,
    rate: RISK_FREE_RATE,
    dividendYield: dividendYield(master.get(row.Ticker)!.UnderSecId),
  };
}

/** New York wall-clock HH:MM of a zoned date-time as Polars reads it. */
export const wallClock = (d: Date | string) => {
  const date = new Date(d);
  return new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hourCycle: "h23", hour: "2-digit", minute: "2-digit" }).format(
    date,
  );
};

/** A deterministic sample of `n` items spread over the array. */
export const spread = <T>(items: readonly T[], n: number): T[] =>
  items.length <= n ? [...items] : Array.from({ length: n }, (_, k) => items[Math.floor((k * items.length) / n)]);

/** A root that hands its outstanding contracts to another on a corporate action's date. */
export interface Succession {
  from: string;
  to: string;
  date: string;
}

/** The successions of a market's corporate actions: split and merger to the adjusted root (suffix 1), a rename to the new ticker. */
export function successions(manifest: Manifest): Succession[] {
  const tickerOf = (asid: number) => manifest.securities.find((s) => s.asid === asid)!.ticker;
  return manifest.corporateActions.map((a) =>
    a.kind === "split"
      ? { from: tickerOf(a.asid), to: `${tickerOf(a.asid)}1`, date: a.exDate }
      : a.kind === "merger"
      ? { from: tickerOf(a.targetAsid), to: `${tickerOf(a.targetAsid)}1`, date: a.effectiveDate }
      : { from: a.oldTicker, to: a.newTicker, date: a.date }
  );
}
