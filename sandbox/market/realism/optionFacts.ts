/**
 * Stylized facts of a generated market's options: Greek bounds, the spot-vol link, implied over
 * realized volatility, long-dated smile convexity, near-the-money spreads, expiries and strike
 * spacing, put/call open interest and open interest into expiry.
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { correlation, mean, quantile, sd } from "./stats.ts";

type Columns = Record<string, ArrayLike<number> & Iterable<number>> & {
  Ticker: string[];
  TradeDate: string[];
  ExpirationDate: string[];
  CallPut: string[];
  OptionStyle: string[];
};

const NUMERIC = [
  "Strike",
  "DaysToMaturity",
  "UnderLastMidPrice",
  "LastBidPrice",
  "LastAskPrice",
  "MidImpliedVol",
  "MidDelta",
  "MidGamma",
  "MidTheta",
  "MidVega",
];

/** The opt-greeks-daily rows of a market as columns (dates as YYYY-MM-DD strings, missing numbers NaN). */
export function readGreeks(marketDir: string): Columns {
  const df = pl.scanParquet(join(marketDir, "opt-greeks-daily/*.parquet")).select(
    pl.col("TradeDate").cast(pl.Utf8),
    pl.col("ExpirationDate").cast(pl.Utf8),
    pl.col("Ticker"),
    pl.col("CallPut"),
    pl.col("OptionStyle"),
    ...NUMERIC.map((c) => pl.col(c).cast(pl.Float64).fillNull(NaN)),
  ).collectSync();
  const out: Record<string, unknown> = {};
  for (const c of df.columns) {
    out[c] = NUMERIC.includes(c) ? Float64Array.from(df.getColumn(c).toArray() as number[]) : df.getColumn(c).toArray();
  }
  return out as Columns;
}

/**
 * Rows breaking a Greek's bound: |Delta| > 1, Gamma < 0, Vega < 0, Theta > 0 on an American contract.
 *
 * @example
 * ```ts
 * greekBoundViolations(readGreeks("data/tiny")); // { delta: 0, gamma: 0, vega: 0, americanTheta: 0, rows: 52000 }
 * ```
 */
export function greekBoundViolations(g: Columns) {
  let delta = 0, gamma = 0, vega = 0, americanTheta = 0;
  for (let i = 0; i < g.Ticker.length; i++) {
    if (Math.abs(g.MidDelta[i]) > 1) delta++;
    if (g.MidGamma[i] < 0) gamma++;
    if (g.MidVega[i] < 0) vega++;
    if (g.OptionStyle[i] === "A" && g.MidTheta[i] > 0) americanTheta++;
  }
  return { delta, gamma, vega, americanTheta, rows: g.Ticker.length };
}

/** Per root and day: the at-the-money implied vol and quoted spread of the expiry nearest 30 days out, and the underlying. */
export function atmMonthSeries(g: Columns, root: string) {
  const best = new Map<string, { dte: number; dist: number; iv: number[]; spread: number[]; spot: number }>();
  for (let i = 0; i < g.Ticker.length; i++) {
    if (g.Ticker[i] !== root || !(g.DaysToMaturity[i] >= 7)) continue;
    const date = g.TradeDate[i], spot = g.UnderLastMidPrice[i];
    const dte = Math.abs(g.DaysToMaturity[i] - 30), dist = Math.abs(g.Strike[i] - spot);
    const b = best.get(date);
    if (!b || dte < b.dte || (dte === b.dte && dist < b.dist - 1e-9)) best.set(date, { dte, dist, iv: [], spread: [], spot });
    const cur = best.get(date)!;
    if (cur.dte === dte && Math.abs(cur.dist - dist) < 1e-9) {
      cur.iv.push(g.MidImpliedVol[i]);
      cur.spread.push(g.LastAskPrice[i] - g.LastBidPrice[i]);
    }
  }
  const dates = [...best.keys()].sort();
  return dates.map((date) => ({ date, iv: mean(best.get(date)!.iv), spread: mean(best.get(date)!.spread), spot: best.get(date)!.spot }));
}

/** Correlation of the daily change in at-the-money 1-month implied vol with the underlying's log return. */
export function spotVolCorrelation(g: Columns, root: string): number {
  const s = atmMonthSeries(g, root);
  const dIv: number[] = [], ret: number[] = [];
  for (let i = 1; i < s.length; i++) {
    const r = Math.log(s[i].spot / s[i - 1].spot);
    if (Math.abs(r) > 0.2) continue; // a split or a merger, not a move
    dIv.push(s[i].iv - s[i - 1].iv);
    ret.push(r);
  }
  return correlation(dIv, ret);
}

/** Mean at-the-money 1-month implied vol over the annualized realized vol of the underlying's daily returns. */
export function impliedOverRealized(g: Columns, root: string): number {
  const s = atmMonthSeries(g, root);
  const r = s.slice(1).map((x, i) => Math.log(x.spot / s[i].spot)).filter((x) => Math.abs(x) < 0.2);
  return mean(s.map((x) => x.iv)) / (sd(r) * Math.sqrt(252));
}

/** Median at-the-money 1-month option spread (ask - bid) in dollars. */
export function atmMonthSpread(g: Columns, root: string): number {
  return quantile(atmMonthSeries(g, root).map((x) => x.spread), 0.5);
}

/** Butterflies in vol points, (IV(0.9 S) + IV(1.1 S)) / 2 - IV(S), of out-of-the-money contracts of expiries beyond `minDays`. */
export function longDatedButterflies(g: Columns, roots: readonly string[], minDays = 120): number[] {
  const curves = new Map<string, { spot: number; points: [number, number][] }>();
  for (let i = 0; i < g.Ticker.length; i++) {
    if (!roots.includes(g.Ticker[i]) || !(g.DaysToMaturity[i] > minDays) || !Number.isFinite(g.MidImpliedVol[i])) continue;
    const spot = g.UnderLastMidPrice[i], k = g.Strike[i];
    if ((k < spot) !== (g.CallPut[i] === "P")) continue;
    const key = `${g.Ticker[i]}|${g.TradeDate[i]}|${g.ExpirationDate[i]}`;
    const c = curves.get(key) ?? { spot, points: [] };
    c.points.push([k / spot, g.MidImpliedVol[i]]);
    curves.set(key, c);
  }
  const at = (p: [number, number][], x: number) => {
    for (let j = 1; j < p.length; j++) {
      if (p[j - 1][0] <= x && p[j][0] >= x) return p[j - 1][1] + (p[j][1] - p[j - 1][1]) * (x - p[j - 1][0]) / (p[j][0] - p[j - 1][0]);
    }
    return NaN;
  };
  const out: number[] = [];
  for (const { points } of curves.values()) {
    points.sort((a, b) => a[0] - b[0]);
    const b = 100 * ((at(points, 0.9) + at(points, 1.1)) / 2 - at(points, 1));
    if (Number.isFinite(b)) out.push(b);
  }
  return out;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Weekdays of the expiries listed within a week, and the smallest strike step within 2% of spot on the nearest expiry. */
export function expiriesAndStrikes(g: Columns, root: string): { weekdays: string; strikeStep: number } {
  const days = new Set<string>();
  const near = new Map<string, number[]>();
  const firstDate = g.TradeDate.find((_, i) => g.Ticker[i] === root);
  for (let i = 0; i < g.Ticker.length; i++) {
    if (g.Ticker[i] !== root) continue;
    if (g.DaysToMaturity[i] <= 7) days.add(WEEKDAYS[new Date(`${g.ExpirationDate[i]}T12:00:00Z`).getUTCDay()]);
    if (g.TradeDate[i] === firstDate && Math.abs(g.Strike[i] / g.UnderLastMidPrice[i] - 1) < 0.02) {
      near.set(g.ExpirationDate[i], [...(near.get(g.ExpirationDate[i]) ?? []), g.Strike[i]]);
    }
  }
  const nearest = [...near.keys()].sort()[0];
  const strikes = [...new Set(near.get(nearest) ?? [])].sort((a, b) => a - b);
  const step = Math.min(...strikes.slice(1).map((k, i) => k - strikes[i]));
  return { weekdays: WEEKDAYS.filter((d) => days.has(d)).join(","), strikeStep: step };
}

/**
 * Open-interest facts: put/call ratio per root, share of contracts unchanged day to day, and
 * into expiry the open interest 5 trading days before the last day over 10 days before (flat
 * far out) and on the last day over 5 days before (falling in the last days).
 */
export function openInterestFacts(marketDir: string, roots: readonly string[]) {
  const df = pl.scanParquet(join(marketDir, "opt-open-interest/*.parquet"))
    .select(
      pl.col("TradeDate").cast(pl.Utf8),
      pl.col("ExpirationDate").cast(pl.Utf8),
      "Ticker",
      "CallPut",
      "Strike",
      pl.col("OpenInterest").cast(pl.Float64),
    )
    .sort(["Ticker", "CallPut", "Strike", "ExpirationDate", "TradeDate"]).collectSync();
  const [date, expiry, ticker, cp] = ["TradeDate", "ExpirationDate", "Ticker", "CallPut"].map((c) => df.getColumn(c).toArray() as string[]);
  const strike = df.getColumn("Strike").toArray() as number[], oi = df.getColumn("OpenInterest").toArray() as number[];
  const putCall = Object.fromEntries(roots.map((r) => {
    let p = 0, c = 0;
    for (let i = 0; i < ticker.length; i++) if (ticker[i] === r) cp[i] === "P" ? (p += oi[i]) : (c += oi[i]);
    return [r, p / c];
  }));
  let pairs = 0, unchanged = 0;
  const farOut: number[] = [], lastDays: number[] = [];
  let start = 0;
  for (let i = 1; i <= ticker.length; i++) {
    const same = i < ticker.length && ticker[i] === ticker[i - 1] && cp[i] === cp[i - 1] && strike[i] === strike[i - 1] &&
      expiry[i] === expiry[i - 1];
    if (same) {
      if (oi[i] > 0 && oi[i - 1] > 0) {
        pairs++;
        if (oi[i] === oi[i - 1]) unchanged++;
      }
      continue;
    }
    // Contract series [start, i): the last row before expiry against ten rows earlier.
    let last = i - 1;
    while (last >= start && date[last] >= expiry[last]) last--;
    if (last - 10 >= start && expiry[last] <= date[i - 1] && oi[last - 10] > 0 && oi[last - 5] > 0) {
      farOut.push(oi[last - 5] / oi[last - 10]);
      lastDays.push(oi[last] / oi[last - 5]);
    }
    start = i;
  }
  return { putCall, unchangedShare: unchanged / pairs, farOut: mean(farOut), lastDays: mean(lastDays) };
}
