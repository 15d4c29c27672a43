/**
 * Total returns through splits, dividends and a delisting, as CRSP defines them (CRSP US
 * Stock Database Guide, "Returns"; Shumway 1997 for delisting returns):
 *
 * - holding-period return of day t: R_t = (P_t + D_t)·f_t / P_(t−1) − 1, with P the close, f_t
 *   the new shares per old share when t is a split's ex date (1 otherwise) and D_t the cash
 *   dividend per share going ex on t;
 * - total-return index: the product of (1 + R) from the first day, 1 on the first day;
 * - total-return factor: the multiplier that restates each close as a total-return price in
 *   the last day's shares, TRI_t / TRI_last · P_last / P_t, 1 on the last day (as `adjustPrices`);
 * - delisting return: the value of what a share receives on the delisting date over the last
 *   close, minus 1.
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";
import { isoDate } from "./securities.ts";

/** Values of a SecId/ExDate frame by `secId date`, several on one key combined with `join`. */
function byKey(frame: pl.DataFrame | undefined, value: string, what: string, join: (a: number, b: number) => number): Map<string, number> {
  const out = new Map<string, number>();
  if (!frame) return out;
  for (const c of ["SecId", "ExDate", value]) {
    if (!frame.columns.includes(c)) {
      throw new QueryError(`The ${what} frame needs SecId, ExDate and ${value}; it has ${frame.columns.join(", ")}`);
    }
  }
  for (const r of frame.select("SecId", "ExDate", value).toRecords() as Record<string, unknown>[]) {
    const key = `${Number(r.SecId)} ${isoDate(r.ExDate)}`;
    out.set(key, out.has(key) ? join(out.get(key)!, Number(r[value])) : Number(r[value]));
  }
  return out;
}

/**
 * Daily total returns of one or more securities' daily bars (`TradeDate`, `ASID`,
 * `ClosePrice`), sorted by security and date, with SplitFactor (new shares per old share on an
 * ex date, else 1), DividendUsd (cash per share going ex that day, else 0), PriceReturnPct
 * (through splits, without dividends), TotalReturnPct, TotalReturnIndex (1 on each security's
 * first day) and TotalReturnFactor (1 on its last day). `splits` is what `splitFactors` returns
 * (SecId, ExDate, Factor); `dividends`, optional, has SecId, ExDate and AmountUsd.
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "ODFL" } });
 * totalReturns(daily, await splitFactors(wb)).select("TradeDate", "SplitFactor", "TotalReturnPct", "TotalReturnIndex");
 * ```
 */
export function totalReturns(daily: pl.DataFrame, splits: pl.DataFrame, dividends?: pl.DataFrame): pl.DataFrame {
  const need = ["TradeDate", "ASID", "ClosePrice"].filter((c) => !daily.columns.includes(c));
  if (need.length > 0) {
    throw new QueryError(`totalReturns needs daily bars with ${need.join(", ")} (the frame has ${daily.columns.join(", ")})`);
  }
  const factors = byKey(splits, "Factor", "splits", (a, b) => a * b), cash = byKey(dividends, "AmountUsd", "dividends", (a, b) => a + b);
  const sorted = daily.sort(["ASID", "TradeDate"]);
  const rows = sorted.select("TradeDate", "ASID", "ClosePrice").toRecords() as unknown as {
    TradeDate: Date;
    ASID: number | bigint;
    ClosePrice: number;
  }[];
  const f: number[] = [],
    d: number[] = [],
    priceR: (number | null)[] = [],
    totalR: (number | null)[] = [],
    index: number[] = [],
    factor: number[] = [];
  let start = 0;
  rows.forEach((r, i) => {
    const key = `${Number(r.ASID)} ${isoDate(r.TradeDate)}`;
    const first = i === 0 || Number(rows[i - 1].ASID) !== Number(r.ASID);
    if (first) start = i;
    f.push(factors.get(key) ?? 1);
    d.push(cash.get(key) ?? 0);
    const previous = first ? null : rows[i - 1].ClosePrice;
    priceR.push(previous === null ? null : (r.ClosePrice * f[i]) / previous - 1);
    totalR.push(previous === null ? null : ((r.ClosePrice + d[i]) * f[i]) / previous - 1);
    index.push(first ? 1 : index[i - 1] * (1 + totalR[i]!));
    const last = i === rows.length - 1 || Number(rows[i + 1].ASID) !== Number(r.ASID);
    if (last) { for (let k = start; k <= i; k++) factor[k] = ((index[k] / index[i]) * r.ClosePrice) / rows[k].ClosePrice; }
  });
  const pct = (v: number | null) => (v === null ? null : v * 100);
  return sorted.withColumns(
    pl.Series("SplitFactor", f, pl.Float64),
    pl.Series("DividendUsd", d, pl.Float64),
    pl.Series("PriceReturnPct", priceR.map(pct), pl.Float64),
    pl.Series("TotalReturnPct", totalR.map(pct), pl.Float64),
    pl.Series("TotalReturnIndex", index, pl.Float64),
    pl.Series("TotalReturnFactor", factor, pl.Float64),
  );
}

/** What one share of a delisted security receives: shares of other securities at their price, and cash. */
export interface Consideration {
  /** Shares received per share, each with its price on the delisting date ($). */
  shares: { units: number; priceUsd: number }[];
  /** Cash received per share, $. */
  cashUsd: number;
}

/**
 * The delisting return: the consideration's value on the delisting date over the last close,
 * minus 1 (a fraction: 0.02 is 2%).
 *
 * @example
 * ```ts
 * delistingReturn(160, { shares: [{ units: 1.02, priceUsd: 150 }], cashUsd: 5.17 }); // (153 + 5.17) / 160 − 1 = −0.01144
 * ```
 */
export function delistingReturn(lastCloseUsd: number, consideration: Consideration): number {
  const value = consideration.shares.reduce((s, x) => s + x.units * x.priceUsd, 0) + consideration.cashUsd;
  if (!(Number.isFinite(lastCloseUsd) && lastCloseUsd > 0) || !Number.isFinite(value)) {
    throw new QueryError(`A delisting return needs a last close above 0 and a finite consideration; got ${lastCloseUsd} and ${value}`);
  }
  return value / lastCloseUsd - 1;
}
