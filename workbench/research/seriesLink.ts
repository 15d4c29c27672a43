/**
 * Option series followed from one day to the next, across a corporate action when need be:
 * after a split the exchanges move the open contracts to an adjusted root (ODFL → ODFL1) with
 * the same strikes and expiries and a deliverable of `100 × factor` new shares, so the series
 * link on call/put, strike and expiry, and each strike is `strike / factor` per new share.
 * The continuity check: an adjustment that keeps holders whole leaves each series' implied vol
 * where it was, so the vol changes across the event should look like an ordinary day's.
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";
import { median } from "./optionChains.ts";
import { isoDate } from "./securities.ts";

const NEEDED = ["TradeDate", "Ticker", "CallPut", "Strike", "ExpirationDate", "LastMidPrice", "MidImpliedVol", "ImpliedVolConvergence"];

/** Contracts of one trade date with a computed vol, keyed by call/put, strike and expiry. */
function computedContracts(greeks: pl.DataFrame, which: string): Map<string, Record<string, unknown>> {
  const missing = NEEDED.filter((c) => !greeks.columns.includes(c));
  if (missing.length > 0) {
    throw new QueryError(`The ${which} greeks frame lacks ${missing.join(", ")} (it has ${greeks.columns.join(", ")})`);
  }
  const dates = greeks.getColumn("TradeDate").unique().toArray().map(isoDate);
  if (dates.length > 1) {
    throw new QueryError(`The ${which} greeks frame must hold one trade date; it holds ${dates.length} (${dates.slice(0, 5).join(", ")})`);
  }
  const rows = greeks.filter(pl.col("ImpliedVolConvergence").eq(pl.lit("computed")).and(pl.col("MidImpliedVol").isNotNull())).select(
    ...NEEDED,
  ).toRecords() as Record<string, unknown>[];
  return new Map(rows.map((r) => [`${r.CallPut} ${r.Strike} ${isoDate(r.ExpirationDate)}`, r]));
}

/**
 * The contracts of two trade dates matched on call/put, strike and expiry (the roots may
 * differ), both with a computed vol: CallPut, ExpirationDate, Strike, TickerBefore,
 * TickerAfter, DateBefore, DateAfter, VolBeforePct, VolAfterPct, VolChangePts (after − before,
 * in vol points), MidBeforeUsd, MidAfterUsd.
 *
 * @example
 * ```ts
 * const day = (d: string) => wb.data.optGreeksDaily({ filters: { Ticker: "AAPL", TradeDate: d } });
 * matchedVolChanges(await day("2024-01-09"), await day("2024-01-10")).getColumn("VolChangePts").abs().median();
 * ```
 */
export function matchedVolChanges(before: pl.DataFrame, after: pl.DataFrame): pl.DataFrame {
  const a = computedContracts(before, "before"), b = computedContracts(after, "after");
  const pairs = [...a].filter(([key]) => b.has(key)).map(([key, x]) => [x, b.get(key)!] as const)
    .sort(([x1], [x2]) =>
      String(x1.CallPut).localeCompare(String(x2.CallPut)) || isoDate(x1.ExpirationDate).localeCompare(isoDate(x2.ExpirationDate)) ||
      Number(x1.Strike) - Number(x2.Strike)
    );
  const col = <T>(f: (x: Record<string, unknown>, y: Record<string, unknown>) => T) => pairs.map(([x, y]) => f(x, y));
  const asDate = (v: unknown) => new Date(`${isoDate(v)}T00:00:00Z`);
  return pl.DataFrame([
    pl.Series("CallPut", col((x) => String(x.CallPut)), pl.String),
    pl.Series("ExpirationDate", col((x) => asDate(x.ExpirationDate)), pl.Date),
    pl.Series("Strike", col((x) => Number(x.Strike)), pl.Float64),
    pl.Series("TickerBefore", col((x) => String(x.Ticker)), pl.String),
    pl.Series("TickerAfter", col((_, y) => String(y.Ticker)), pl.String),
    pl.Series("DateBefore", col((x) => asDate(x.TradeDate)), pl.Date),
    pl.Series("DateAfter", col((_, y) => asDate(y.TradeDate)), pl.Date),
    pl.Series("VolBeforePct", col((x) => Number(x.MidImpliedVol) * 100), pl.Float64),
    pl.Series("VolAfterPct", col((_, y) => Number(y.MidImpliedVol) * 100), pl.Float64),
    pl.Series("VolChangePts", col((x, y) => (Number(y.MidImpliedVol) - Number(x.MidImpliedVol)) * 100), pl.Float64),
    pl.Series("MidBeforeUsd", col((x) => Number(x.LastMidPrice)), pl.Float64),
    pl.Series("MidAfterUsd", col((_, y) => Number(y.LastMidPrice)), pl.Float64),
  ]);
}

/**
 * The series of the old root on the last day before a split linked to the adjusted root's on
 * the ex date (`matchedVolChanges`), with SharesPerContract (100 × factor, new shares) and
 * StrikePerNewShareUsd (strike / factor: what each new share costs on exercise).
 *
 * @example
 * ```ts
 * const eve = await wb.data.optGreeksDaily({ filters: { Ticker: "ODFL", TradeDate: "2023-11-21" } });
 * const exDate = await wb.data.optGreeksDaily({ filters: { Ticker: "ODFL1", TradeDate: "2023-11-22" } });
 * const linked = linkSplitSeries(eve, exDate, 1.5); // a 300 strike is 200 a new share
 * ```
 */
export function linkSplitSeries(before: pl.DataFrame, after: pl.DataFrame, factor: number): pl.DataFrame {
  if (!(Number.isFinite(factor) && factor > 0)) {
    throw new QueryError(`A split factor is new shares per old share, above 0 (1.5 for 3-for-2); got ${factor}`);
  }
  return matchedVolChanges(before, after).withColumns(
    pl.lit(100 * factor).alias("SharesPerContract"),
    pl.col("Strike").div(factor).alias("StrikePerNewShareUsd"),
  );
}

/** A median with its bootstrap standard error and the count it is over. */
export interface MedianEstimate {
  /** The median; null with no value. */
  median: number | null;
  /** Its bootstrap standard error; null with fewer than two values. */
  standardError: number | null;
  /** How many finite values it is over. */
  n: number;
}

/** A small seeded generator (mulberry32), so a bootstrap gives the same answer every run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The median of `values` and its bootstrap standard error (Efron and Tibshirani, An
 * Introduction to the Bootstrap, 1993, ch. 6): the standard deviation of the medians of
 * `resamples` resamples drawn with replacement, from a fixed seed. Null with fewer than two values.
 *
 * @example
 * ```ts
 * medianWithError([1, 2, 3, 4]); // { median: 2.5, standardError: ≈0.76, n: 4 }
 * ```
 */
export function medianWithError(values: number[], resamples = 2000, seed = 1): MedianEstimate {
  const xs = values.filter(Number.isFinite);
  if (xs.length < 2) return { median: median(xs), standardError: null, n: xs.length };
  const random = seeded(seed);
  const medians: number[] = [];
  // A typed array sorts numerically in place, several times faster than an array of numbers.
  const draw = new Float64Array(xs.length), m = xs.length >> 1;
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < xs.length; i++) draw[i] = xs[Math.floor(random() * xs.length)];
    draw.sort();
    medians.push(xs.length % 2 ? draw[m] : (draw[m - 1] + draw[m]) / 2);
  }
  const mean = medians.reduce((s, m) => s + m, 0) / resamples;
  const variance = medians.reduce((s, m) => s + (m - mean) ** 2, 0) / (resamples - 1);
  return { median: median(xs), standardError: Math.sqrt(variance), n: xs.length };
}
