/**
 * An `opt-greeks-daily` frame read into option chains: one chain per trade date, root and
 * expiry, its contracts as plain records. The term-structure helpers work chain by chain.
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";
import { isoDate } from "./securities.ts";

/** One contract of a chain, as the dataset reports it at the session's last minute. */
export interface ChainContract {
  /** True for a call, false for a put. */
  call: boolean;
  /** Strike, $. */
  strike: number;
  /** NBBO mid, $ (null when the dataset has none). */
  mid: number | null;
  /** Implied vol of the mid, per √year (null when not converged). */
  vol: number | null;
  /** True when the dataset's model computed the vol from this contract's own mid. */
  computed: boolean;
}

/** The contracts of one root and expiry on one trade date. */
export interface OptionChain {
  /** The trade date, YYYY-MM-DD. */
  tradeDate: string;
  /** The option root (`Ticker` in the option datasets). */
  ticker: string;
  /** The expiration date, YYYY-MM-DD. */
  expiration: string;
  /** Calendar days from the trade date to the expiry. */
  days: number;
  /** Days / 365, the dataset's own `YearsToMaturity` convention. */
  years: number;
  /** The underlying's NBBO mid at the last minute, $. */
  spot: number;
  /** The chain's contracts, by strike. */
  contracts: ChainContract[];
}

const NEEDED = [
  "TradeDate",
  "Ticker",
  "CallPut",
  "Strike",
  "ExpirationDate",
  "UnderLastMidPrice",
  "LastMidPrice",
  "MidImpliedVol",
  "ImpliedVolConvergence",
];
const DAY_MS = 86_400_000;

/** Calendar days from one ISO date to another. */
const daysFrom = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * The chains of a greeks frame, ordered by trade date, root and expiry. Throws naming the
 * missing columns when the frame lacks one the helpers read.
 *
 * @example
 * ```ts
 * const chains = optionChains(await wb.data.optGreeksDaily({ filters: { Ticker: "AAPL", TradeDate: "2024-01-10" } }));
 * chains.map((c) => `${c.expiration}: ${c.contracts.length} contracts`);
 * ```
 */
export function optionChains(greeks: pl.DataFrame): OptionChain[] {
  const missing = NEEDED.filter((c) => !greeks.columns.includes(c));
  if (missing.length > 0) {
    throw new QueryError(
      `The greeks frame lacks ${missing.join(", ")}: fetch opt-greeks-daily with these columns (it has ${greeks.columns.join(", ")})`,
    );
  }
  const rows = greeks.select(...NEEDED).sort(["TradeDate", "Ticker", "ExpirationDate", "Strike"]).toRecords() as unknown as {
    TradeDate: Date;
    Ticker: string;
    CallPut: string;
    Strike: number;
    ExpirationDate: Date;
    UnderLastMidPrice: number | null;
    LastMidPrice: number | null;
    MidImpliedVol: number | null;
    ImpliedVolConvergence: string | null;
  }[];
  const chains = new Map<string, OptionChain>();
  for (const r of rows) {
    const tradeDate = isoDate(r.TradeDate), expiration = isoDate(r.ExpirationDate);
    const key = `${tradeDate} ${r.Ticker} ${expiration}`;
    let chain = chains.get(key);
    if (!chain) {
      const days = daysFrom(tradeDate, expiration);
      chain = { tradeDate, ticker: r.Ticker, expiration, days, years: days / 365, spot: Number(r.UnderLastMidPrice), contracts: [] };
      chains.set(key, chain);
    }
    const vol = r.MidImpliedVol !== null && Number.isFinite(r.MidImpliedVol) && r.MidImpliedVol > 0 ? r.MidImpliedVol : null;
    chain.contracts.push({
      call: r.CallPut === "C",
      strike: r.Strike,
      mid: r.LastMidPrice,
      vol,
      computed: vol !== null && r.ImpliedVolConvergence === "computed",
    });
  }
  return [...chains.values()];
}

/** A Date column from ISO dates (a Polars Date reads back as midnight UTC). */
export const dateSeries = (name: string, dates: string[]): pl.Series =>
  pl.Series(name, dates.map((d) => new Date(`${d}T00:00:00Z`)), pl.Date);

/** The median of the finite numbers given; null when there are none. */
export function median(values: number[]): number | null {
  const xs = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const m = xs.length >> 1;
  return xs.length % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
}
