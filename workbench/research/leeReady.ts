/**
 * Lee-Ready (1991) trade signing on the ticks of one ticker-day (`eq-taq`).
 *
 * Delay rule: none. The NBBO of a trade is the last QUOTE BID and QUOTE ASK before it in the
 * feed's order (a zero-second quote lag). Lee and Ready matched each trade with the quote five
 * seconds earlier because 1980s trade reports lagged their quotes; with today's synchronised
 * timestamps that lag picks a stale quote, and Bessembinder (2003) and Holden and Jacobsen
 * (2014) use the quote in force at the trade.
 *
 * - quote rule: a trade above the midpoint is a buy (+1), below it a sell (-1);
 * - tick test at the midpoint: +1 when the last different earlier price was lower (uptick or
 *   zero-uptick), -1 when it was higher; unsigned (null) before the day's first price change;
 * - with no NBBO yet, or a locked (bid = ask) or crossed (bid > ask) one, the trade is left
 *   unsigned and `Excluded` says why: such quotes carry no usable midpoint;
 * - a TRADE CANCEL removes the latest earlier trade with its price, size, venue and condition.
 *
 * The day is read into typed arrays once (event kinds computed by Polars); text columns are read
 * only for the few trades a cancel may match, so a busy ticker-day signs in milliseconds.
 */
import pl from "nodejs-polars";
import { nyEpochNs } from "../../calendar/nyTime.ts";
import { QueryError } from "../errors/base.ts";
import { isoDate } from "./securities.ts";

/** Event kinds of `DayTicks.kind`. */
const EVENT = { OTHER: 0, BID: 1, ASK: 2, TRADE: 3, CANCEL: 4 } as const;

/** The ticks of one day as typed arrays, times in nanoseconds after New York midnight. */
export interface DayTicks {
  /** The trade date, `YYYY-MM-DD`. */
  date: string;
  /** The ticker. */
  ticker: string;
  /** Each row's time, nanoseconds after New York midnight. */
  nsOfDay: Float64Array;
  /** `EVENT` code of each row. */
  kind: Int8Array;
  /** Each row's price in dollars (NaN when absent). */
  price: Float64Array;
  /** Each row's size in shares (NaN when absent). */
  quantity: Float64Array;
  /** Exchange and ConditionCode of a row ("" when absent), read only where a cancel needs them. */
  venueCondition: (i: number) => string;
}

const REQUIRED = ["TradeDate", "EventDateTime", "EventType", "Ticker", "Price", "Quantity"];

/** Reads a one-ticker, one-day tick frame into arrays, in the frame's order. */
export function dayTicks(ticks: pl.DataFrame): DayTicks {
  const missing = REQUIRED.filter((c) => !ticks.columns.includes(c));
  if (missing.length > 0) {
    throw new QueryError(
      `The tick frame lacks ${missing.join(", ")}: fetch eq-taq with these columns (it has ${ticks.columns.join(", ")})`,
    );
  }
  if (ticks.height === 0) throw new QueryError("The tick frame is empty: no trades to sign");
  const dates = ticks.getColumn("TradeDate").unique().toArray().map(isoDate);
  const tickers = ticks.getColumn("Ticker").unique().toArray() as string[];
  if (dates.length !== 1 || tickers.length !== 1) {
    throw new QueryError(
      `Lee-Ready signing takes one ticker on one day; the frame holds ${tickers.length} ticker(s) (${
        tickers.slice(0, 5).join(", ")
      }) on ${dates.length} day(s) (${dates.slice(0, 5).join(", ")})`,
    );
  }
  const date = dates[0];
  const midnight = nyEpochNs(date, 0n);
  const type = pl.col("EventType");
  const kind = pl.when(type.eq(pl.lit("QUOTE BID"))).then(pl.lit(EVENT.BID))
    .when(type.eq(pl.lit("QUOTE ASK"))).then(pl.lit(EVENT.ASK))
    .when(type.eq(pl.lit("TRADE"))).then(pl.lit(EVENT.TRADE))
    .when(type.eq(pl.lit("TRADE CANCEL"))).then(pl.lit(EVENT.CANCEL))
    .otherwise(pl.lit(EVENT.OTHER));
  const local = ticks.select(
    pl.col("EventDateTime").cast(pl.Int64).sub(pl.lit(Number(midnight)).cast(pl.Int64)).cast(pl.Float64).alias("ns"),
    kind.cast(pl.Int8).alias("kind"),
    pl.col("Price").cast(pl.Float64).fillNull(pl.lit(NaN)),
    pl.col("Quantity").cast(pl.Float64).fillNull(pl.lit(0)),
  );
  const text = (name: string) => (ticks.columns.includes(name) ? ticks.getColumn(name) : undefined);
  const [exchange, condition] = [text("Exchange"), text("ConditionCode")];
  return {
    date,
    ticker: tickers[0],
    nsOfDay: local.getColumn("ns").toTypedArray() as Float64Array,
    kind: local.getColumn("kind").toTypedArray() as Int8Array,
    price: local.getColumn("Price").toTypedArray() as Float64Array,
    quantity: local.getColumn("Quantity").toTypedArray() as Float64Array,
    venueCondition: (i) => `${exchange?.get(i) ?? ""}|${condition?.get(i) ?? ""}`,
  };
}

/** Indexes of the day's trades that no TRADE CANCEL removed, in feed order. */
function liveTrades(t: DayTicks): Int32Array {
  const trades: number[] = [];
  const cancelled = new Uint8Array(t.kind.length);
  for (let i = 0; i < t.kind.length; i++) {
    if (t.kind[i] === EVENT.TRADE) trades.push(i);
    else if (t.kind[i] === EVENT.CANCEL) {
      for (let k = trades.length - 1; k >= 0; k--) {
        const j = trades[k];
        if (!cancelled[j] && t.price[j] === t.price[i] && t.quantity[j] === t.quantity[i] && t.venueCondition(j) === t.venueCondition(i)) {
          cancelled[j] = 1;
          break;
        }
      }
    }
  }
  return Int32Array.from(trades.filter((j) => !cancelled[j]));
}

/** Why a trade has no usable midpoint, by code: 0 none, then these. */
export const NO_MID = ["", "no quote", "locked", "crossed"] as const;

/**
 * The live trades of a day (indexes into the ticks) with their NBBO and Lee-Ready sign. NaN
 * stands for a missing value; `sign` is +1, -1 or 0 (unsigned), `by` 1 for the quote rule, 2
 * for the tick test, 0 for neither; `noMid` indexes `NO_MID`.
 */
export interface SignedDay {
  /** The trade's row in the day's ticks. */
  rows: Int32Array;
  /** The NBBO bid in force (NaN: missing). */
  bid: Float64Array;
  /** The NBBO ask in force (NaN: missing). */
  ask: Float64Array;
  /** Their midpoint (NaN: missing). */
  mid: Float64Array;
  /** The trade's sign: +1 buyer-initiated, -1 seller-initiated, 0 unsigned. */
  sign: Int8Array;
  /** The rule that signed it: 1 the quote rule, 2 the tick test, 0 neither. */
  by: Uint8Array;
  /** Why there is no midpoint: an index into `NO_MID` (0: there is one). */
  noMid: Uint8Array;
}

/** Signs the live trades of a day by the rules in the module's documentation. */
export function signDay(t: DayTicks): SignedDay {
  const rows = liveTrades(t);
  const n = rows.length;
  const out: SignedDay = {
    rows,
    bid: new Float64Array(n),
    ask: new Float64Array(n),
    mid: new Float64Array(n),
    sign: new Int8Array(n),
    by: new Uint8Array(n),
    noMid: new Uint8Array(n),
  };
  let b = NaN, a = NaN, lastPrice = NaN, tickSign = 0, k = 0;
  for (let i = 0; i < t.kind.length && k < n; i++) {
    const kind = t.kind[i];
    if (kind === EVENT.BID) b = t.price[i];
    else if (kind === EVENT.ASK) a = t.price[i];
    if (rows[k] !== i) continue;
    const p = t.price[i];
    if (!Number.isNaN(lastPrice) && p !== lastPrice) tickSign = p > lastPrice ? 1 : -1;
    lastPrice = p;
    const why = Number.isNaN(b) || Number.isNaN(a) ? 1 : b === a ? 2 : b > a ? 3 : 0;
    const m = why === 0 ? (a + b) / 2 : NaN;
    out.bid[k] = b;
    out.ask[k] = a;
    out.mid[k] = m;
    out.noMid[k] = why;
    if (why === 0) {
      if (p !== m) [out.sign[k], out.by[k]] = [p > m ? 1 : -1, 1];
      else if (tickSign !== 0) [out.sign[k], out.by[k]] = [tickSign, 2];
    }
    k++;
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

/** Columns computed in JavaScript for some of a day's trades, attached in one Polars step. */
export interface TradeColumns {
  /** Float64 columns, NaN standing for a missing value. */
  floats: Record<string, Float64Array>;
  /** Int32 columns. */
  ints?: Record<string, Int32Array>;
  /** Text columns as small codes with their labels (code 0 or an empty label: null). */
  labels?: Record<string, { codes: Uint8Array; labels: readonly string[] }>;
  /** Float columns to hand out as Int8 (a sign: NaN becomes null, never 0). */
  int8?: string[];
}

/**
 * A frame of the trades at tick rows `rows` (increasing): EventDateTime, Exchange and
 * ConditionCode from the ticks, then `columns` in their order.
 */
export function tradeFrame(ticks: pl.DataFrame, rows: Int32Array, columns: TradeColumns): pl.DataFrame {
  const keep = new Uint8Array(ticks.height);
  for (const i of rows) keep[i] = 1;
  const text = (name: string) => (ticks.columns.includes(name) ? pl.col(name) : pl.lit(null).cast(pl.String).alias(name));
  const base = ticks.select("EventDateTime", text("Exchange"), text("ConditionCode")).filter(pl.Series("__keep", keep).cast(pl.Bool));
  const labels = columns.labels ?? {};
  const computed = pl.DataFrame({
    ...columns.floats,
    ...(columns.ints ?? {}),
    ...Object.fromEntries(Object.entries(labels).map(([name, l]) => [`${name}__code`, l.codes])),
  });
  const label = (name: string, names: readonly string[]) => {
    const code = pl.col(`${name}__code`);
    let out = pl.lit(null).cast(pl.String);
    names.forEach((l, k) => {
      if (l !== "") out = pl.when(code.eq(pl.lit(k))).then(pl.lit(l)).otherwise(out);
    });
    return out.alias(name);
  };
  const int8 = new Set(columns.int8 ?? []);
  const order = [...Object.keys(columns.floats), ...Object.keys(columns.ints ?? {}), ...Object.keys(labels)];
  const exprs = order.map((name) => {
    if (name in labels) return label(name, labels[name].labels);
    if (!(name in columns.floats)) return pl.col(name);
    // NaN to null, then Int8 for a sign: an integer Series built from an array under Deno's
    // Node-API would turn nulls into 0, and an unsigned trade would read as signed 0.
    const value = pl.col(name).fillNan(pl.lit(null));
    return int8.has(name) ? value.cast(pl.Int8, true).alias(name) : value.alias(name);
  });
  return base.hstack(computed).select("EventDateTime", "Exchange", "ConditionCode", ...exprs);
}

/** The `signTrades` columns of the signed trades at positions `keep` of `s` (all by default). */
export function signedColumns(t: DayTicks, s: SignedDay, keep?: Int32Array): TradeColumns {
  const at = keep ?? Int32Array.from(s.rows.keys());
  const pick = (values: ArrayLike<number>) => Float64Array.from(at, (k) => values[k]);
  return {
    floats: {
      Price: Float64Array.from(at, (k) => t.price[s.rows[k]]),
      Quantity: Float64Array.from(at, (k) => t.quantity[s.rows[k]]),
      Bid: pick(s.bid),
      Ask: pick(s.ask),
      Mid: pick(s.mid),
      Sign: Float64Array.from(at, (k) => (s.sign[k] === 0 ? NaN : s.sign[k])),
    },
    int8: ["Sign"],
    labels: {
      SignedBy: { codes: Uint8Array.from(at, (k) => s.by[k]), labels: ["", "quote", "tick"] },
      Excluded: { codes: Uint8Array.from(at, (k) => s.noMid[k]), labels: NO_MID },
    },
  };
}

/** The signed trades of `signDay` as a frame (the columns `signTrades` documents). */
function signedFrame(ticks: pl.DataFrame, t: DayTicks, s: SignedDay): pl.DataFrame {
  return tradeFrame(ticks, s.rows, signedColumns(t, s));
}

/** The usable NBBO midpoint after each quote event (locked and crossed books skipped), by time. */
export interface MidTimeline {
  /** When each midpoint starts, nanoseconds after New York midnight. */
  nsOfDay: Float64Array;
  /** The midpoint, in dollars. */
  mid: Float64Array;
}

/** The day's midpoint timeline, for the midpoint in force at a later time. */
export function midTimeline(t: DayTicks): MidTimeline {
  const ns = new Float64Array(t.kind.length), mids = new Float64Array(t.kind.length);
  let b = NaN, a = NaN, n = 0;
  for (let i = 0; i < t.kind.length; i++) {
    const kind = t.kind[i];
    if (kind === EVENT.BID) b = t.price[i];
    else if (kind === EVENT.ASK) a = t.price[i];
    else continue;
    if (b < a) {
      ns[n] = t.nsOfDay[i];
      mids[n++] = (a + b) / 2;
    }
  }
  return { nsOfDay: ns.subarray(0, n), mid: mids.subarray(0, n) };
}

/** The last usable midpoint at or before `ns` (NaN before the first). */
export function midAt(timeline: MidTimeline, ns: number): number {
  let lo = 0, hi = timeline.nsOfDay.length - 1, found = -1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (timeline.nsOfDay[m] <= ns) {
      found = m;
      lo = m + 1;
    } else hi = m - 1;
  }
  return found < 0 ? NaN : timeline.mid[found];
}
