/**
 * Lee-Ready (1991) trade signing on the ticks of one ticker-day (`eq-taq`), without the
 * historical five-second quote lag (modern timestamps make it wrong: Bessembinder 2003,
 * Holden and Jacobsen 2014):
 *
 * - the NBBO of a trade is the last QUOTE BID and QUOTE ASK before it in the feed's order;
 * - quote rule: a trade above the midpoint is a buy (+1), below it a sell (-1);
 * - tick test at the midpoint: +1 when the last different earlier price was lower (uptick or
 *   zero-uptick), -1 when it was higher; unsigned (null) before the day's first price change;
 * - with no NBBO yet, or a locked (bid = ask) or crossed (bid > ask) one, the trade is left
 *   unsigned and `Excluded` says why: such quotes carry no usable midpoint;
 * - a TRADE CANCEL removes the latest earlier trade with its price, size, venue and condition.
 */
import pl from "nodejs-polars";
import { nyEpochNs } from "../../calendar/nyTime.ts";
import { QueryError } from "../errors/base.ts";
import { isoDate } from "./securities.ts";

/** The ticks of one day as plain arrays, times in nanoseconds after New York midnight. */
export interface DayTicks {
  date: string;
  ticker: string;
  nsOfDay: Float64Array;
  type: string[];
  price: Float64Array;
  quantity: Float64Array;
  exchange: string[];
  condition: string[];
}

const REQUIRED = ["TradeDate", "EventDateTime", "EventType", "Ticker", "Price", "Quantity"];

/** Reads a one-ticker, one-day tick frame into arrays, in the frame's order. */
export function dayTicks(ticks: pl.DataFrame): DayTicks {
  const missing = REQUIRED.filter((c) => !ticks.columns.includes(c));
  if (missing.length > 0) throw new QueryError(`The tick frame lacks ${missing.join(", ")}: fetch eq-taq with these columns (it has ${ticks.columns.join(", ")})`);
  if (ticks.height === 0) throw new QueryError("The tick frame is empty: no trades to sign");
  const dates = ticks.getColumn("TradeDate").unique().toArray().map(isoDate);
  const tickers = ticks.getColumn("Ticker").unique().toArray() as string[];
  if (dates.length !== 1 || tickers.length !== 1) {
    throw new QueryError(`Lee-Ready signing takes one ticker on one day; the frame holds ${tickers.length} ticker(s) (${tickers.slice(0, 5).join(", ")}) on ${dates.length} day(s) (${dates.slice(0, 5).join(", ")})`);
  }
  const date = dates[0];
  const midnight = nyEpochNs(date, 0n);
  const text = (name: string) => (ticks.columns.includes(name) ? (ticks.getColumn(name).toArray() as (string | null)[]).map((v) => v ?? "") : new Array<string>(ticks.height).fill(""));
  const local = ticks.select(pl.col("EventDateTime").cast(pl.Int64).sub(pl.lit(Number(midnight)).cast(pl.Int64)).cast(pl.Float64).alias("ns"), pl.col("Price").cast(pl.Float64).fillNull(pl.lit(NaN)), pl.col("Quantity").cast(pl.Float64).fillNull(pl.lit(0)));
  return {
    date,
    ticker: tickers[0],
    nsOfDay: local.getColumn("ns").toTypedArray() as Float64Array,
    type: text("EventType"),
    price: local.getColumn("Price").toTypedArray() as Float64Array,
    quantity: local.getColumn("Quantity").toTypedArray() as Float64Array,
    exchange: text("Exchange"),
    condition: text("ConditionCode"),
  };
}

/** The EventDateTime column of the rows `keep` marks. */
export function eventTimes(ticks: pl.DataFrame, keep: boolean[]): pl.DataFrame {
  return ticks.select("EventDateTime").withColumns(pl.Series("__keep", keep, pl.Bool)).filter(pl.col("__keep")).drop("__keep");
}

/** Indexes of the day's trades that no TRADE CANCEL removed, in feed order. */
export function liveTrades(t: DayTicks): number[] {
  const trades: number[] = [];
  const cancelled = new Set<number>();
  for (let i = 0; i < t.type.length; i++) {
    if (t.type[i] === "TRADE") trades.push(i);
    else if (t.type[i] === "TRADE CANCEL") {
      for (let k = trades.length - 1; k >= 0; k--) {
        const j = trades[k];
        if (!cancelled.has(j) && t.price[j] === t.price[i] && t.quantity[j] === t.quantity[i] && t.exchange[j] === t.exchange[i] && t.condition[j] === t.condition[i]) {
          cancelled.add(j);
          break;
        }
      }
    }
  }
  return trades.filter((j) => !cancelled.has(j));
}

/** The live trades of a day (indexes into the ticks) with their NBBO and Lee-Ready sign. */
export interface SignedDay {
  rows: number[];
  bid: (number | null)[];
  ask: (number | null)[];
  mid: (number | null)[];
  sign: (number | null)[];
  by: (string | null)[];
  excluded: (string | null)[];
}

/** Signs the live trades of a day by the rules in the module's documentation. */
export function signDay(t: DayTicks): SignedDay {
  const live = new Set(liveTrades(t));
  const out: SignedDay = { rows: [], bid: [], ask: [], mid: [], sign: [], by: [], excluded: [] };
  let b = NaN, a = NaN, lastPrice = NaN, tickSign: number | null = null;
  for (let i = 0; i < t.type.length; i++) {
    if (t.type[i] === "QUOTE BID") b = t.price[i];
    else if (t.type[i] === "QUOTE ASK") a = t.price[i];
    if (!live.has(i)) continue;
    const p = t.price[i];
    if (!Number.isNaN(lastPrice) && p !== lastPrice) tickSign = p > lastPrice ? 1 : -1;
    lastPrice = p;
    const why = Number.isNaN(b) || Number.isNaN(a) ? "no quote" : b === a ? "locked" : b > a ? "crossed" : null;
    const m = why === null ? (a + b) / 2 : null;
    out.rows.push(i);
    out.bid.push(Number.isNaN(b) ? null : b);
    out.ask.push(Number.isNaN(a) ? null : a);
    out.mid.push(m);
    out.excluded.push(why);
    const [sign, by] = m === null ? [null, null] : p !== m ? [p > m ? 1 : -1, "quote"] : [tickSign, tickSign === null ? null : "tick"];
    out.sign.push(sign);
    out.by.push(by);
  }
  return out;
}

/**
 * Every live trade of one ticker-day with the NBBO in force, its midpoint and its Lee-Ready
 * sign. Columns: EventDateTime, Price, Quantity, Exchange, ConditionCode, Bid, Ask, Mid,
 * Sign (+1 buy, -1 sell, null unsigned), SignedBy (`quote`, `tick` or null) and Excluded (why
 * the trade has no usable midpoint: `no quote`, `locked`, `crossed`; null otherwise).
 *
 * @example
 * ```ts
 * const ticks = await wb.data.eqTaq("2023-11-21", "AAPL");
 * const signed = signTrades(ticks);
 * signed.groupBy("SignedBy").len();
 * ```
 */
export function signTrades(ticks: pl.DataFrame): pl.DataFrame {
  const t = dayTicks(ticks);
  return signedFrame(ticks, t, signDay(t));
}

/** The signed trades of `signDay` as a frame (the columns `signTrades` documents). */
export function signedFrame(ticks: pl.DataFrame, t: DayTicks, s: SignedDay): pl.DataFrame {
  const keep = new Array<boolean>(t.type.length).fill(false);
  for (const i of s.rows) keep[i] = true;
  const pick = <T>(xs: ArrayLike<T>) => s.rows.map((i) => xs[i]);
  return eventTimes(ticks, keep).withColumns(
    pl.Series("Price", pick(t.price), pl.Float64),
    pl.Series("Quantity", pick(t.quantity), pl.Float64),
    pl.Series("Exchange", pick(t.exchange), pl.String),
    pl.Series("ConditionCode", pick(t.condition), pl.String),
    pl.Series("Bid", s.bid, pl.Float64),
    pl.Series("Ask", s.ask, pl.Float64),
    pl.Series("Mid", s.mid, pl.Float64),
    // Built as Float64 and cast: under Deno, an integer Series built from an array turns its
    // nulls into 0 (Deno's Node-API), and an unsigned trade would read as signed 0.
    pl.Series("Sign", s.sign, pl.Float64).cast(pl.Int8, true),
    pl.Series("SignedBy", s.by, pl.String),
    pl.Series("Excluded", s.excluded, pl.String),
  );
}

/** The usable NBBO midpoint after each quote event (locked and crossed books skipped), by time. */
export interface MidTimeline {
  nsOfDay: number[];
  mid: number[];
}

/** The day's midpoint timeline, for the midpoint in force at a later time. */
export function midTimeline(t: DayTicks): MidTimeline {
  const out: MidTimeline = { nsOfDay: [], mid: [] };
  let b = NaN, a = NaN;
  for (let i = 0; i < t.type.length; i++) {
    if (t.type[i] === "QUOTE BID") b = t.price[i];
    else if (t.type[i] === "QUOTE ASK") a = t.price[i];
    else continue;
    if (b < a) {
      out.nsOfDay.push(t.nsOfDay[i]);
      out.mid.push((a + b) / 2);
    }
  }
  return out;
}

/** The last usable midpoint at or before `ns` (null before the first). */
export function midAt(timeline: MidTimeline, ns: number): number | null {
  let lo = 0, hi = timeline.nsOfDay.length - 1, found = -1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (timeline.nsOfDay[m] <= ns) {
      found = m;
      lo = m + 1;
    } else hi = m - 1;
  }
  return found < 0 ? null : timeline.mid[found];
}
