/**
 * Generates one security-day of ticks as a market would produce them: NBBO updates that
 * follow the efficient price with a time-of-day spread, trades that hit the quotes (or print
 * inside them off-exchange) and move the price in their direction, opening and closing auctions
 * on the listing market, and rare trade cancels. Every later dataset (1-minute bars, daily bars) is derived from these ticks.
 */
import type { TradingDay } from "../../../calendar/calendar.ts";
import { Rng } from "../rng.ts";
import { type Security, tickSize } from "../securities.ts";
import {
  dayActivity,
  FIRST_MINUTE_OF_DAY,
  isRegularHours,
  MINUTES_PER_DAY,
  OPEN_MINUTE_OF_DAY,
  quotesPerTrade,
  spreadMultiplier,
  trfProbability,
} from "./intraday.ts";
import { isQuadWitching, seasonalVolume } from "./events.ts";
import type { DayPath } from "./pricePath.ts";
import { NbboBook } from "./nbboBook.ts";
import {
  COND_CLOSE_AUCTION,
  COND_OPEN_AUCTION,
  CONDITIONS,
  EXCHANGES,
  TickBuffer,
  type TickColumns,
  TRADE,
  TRADE_CANCEL,
  TRF_EXCHANGE,
} from "./tickColumns.ts";
import { extremeSize, minuteTradeSizes, REAL_MEAN_TRADE_SIZE } from "./tradeSizes.ts";
import { priceImpact, tradePrice } from "./tradePrice.ts";
import { drawExchange } from "./venues.ts";

const NS_PER_MINUTE = 60e9;
/** Opening and closing auctions take these shares of a day's volume. */
const OPEN_AUCTION_SHARE = 0.015;
const CLOSE_AUCTION_SHARE = 0.08;
const CANCEL_PROBABILITY = 0.0015;
const EVENT_QUOTE = 0, EVENT_TRADE = 1, EVENT_OPEN_AUCTION = 2, EVENT_CLOSE_AUCTION = 3;

const COND = (c: (typeof CONDITIONS)[number]) => CONDITIONS.indexOf(c);
// Looked up once: every print takes one.
const COND_REGULAR = COND("@"), COND_ODD_LOT = COND("@I"), COND_SWEEP = COND("F"), COND_SWEEP_ODD_LOT = COND("FI");
const COND_EXTENDED = COND("T"), COND_EXTENDED_ODD_LOT = COND("TI");

export interface DayInput {
  seed: number;
  day: TradingDay;
  security: Security;
  path: DayPath;
  /** Multiplies the number of generated events (sizes shrink to keep volumes). */
  eventScale: number;
}

/** Efficient price at a nanosecond of day, interpolated between minute boundaries. */
function efficientPrice(path: DayPath, ns: number): number {
  const x = ns / NS_PER_MINUTE - FIRST_MINUTE_OF_DAY;
  const m = Math.min(Math.max(Math.floor(x), 0), MINUTES_PER_DAY - 1);
  const f = x - m;
  return path.price[m] + (path.price[m + 1] - path.price[m]) * f;
}

const round4 = (p: number) => Math.round(p * 1e4) / 1e4;

/**
 * One security-day of ticks, deterministic in (seed, security, date).
 *
 * @example
 * ```ts
 * const ticks = generateDayTicks({ seed: 42, day, security, path, eventScale: 1 });
 * ticks.length; // events, time-ordered
 * ```
 */
export function generateDayTicks(input: DayInput): TickColumns {
  const { seed, day, security: sec, path, eventScale } = input;
  const rng = Rng.for(seed, "ticks", String(sec.asid), day.date);
  const close = day.closeMinute;
  // Share counts follow the price level, so a split leaves dollar volume unchanged.
  const shareFactor = sec.startPrice / path.price[0];
  // Each minute's intensity: the time of day (extended hours scaled by name), times the path's activity (volatility).
  const intensity = new Float64Array(MINUTES_PER_DAY);
  let activityTotal = 0, shapeTotal = 0;
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    const minuteOfDay = FIRST_MINUTE_OF_DAY + m;
    const shape = dayActivity(day, minuteOfDay) * (isRegularHours(minuteOfDay, close) ? 1 : sec.extendedActivity);
    intensity[m] = shape * path.activity[m];
    activityTotal += intensity[m];
    shapeTotal += shape;
  }
  // A volatile day trades more; early closes and holiday weeks less.
  const dayVolume = sec.dailyVolume * shareFactor * seasonalVolume(day) * (activityTotal / shapeTotal) *
    Math.exp(0.2 * rng.normal() - 0.02);
  const meanSize = REAL_MEAN_TRADE_SIZE * shareFactor / (sec.printScale * eventScale);
  const closeShare = CLOSE_AUCTION_SHARE * (isQuadWitching(day.date) ? 2.5 : 1);
  const continuousVolume = dayVolume * (1 - OPEN_AUCTION_SHARE - closeShare);
  const tradesPerActivity = (continuousVolume / meanSize) / activityTotal;

  const expected = tradesPerActivity * activityTotal * 5;
  const out = new TickBuffer(expected * 1.3 + 64);
  const cancels: [number, number, number, number, number][] = [];
  const listing = EXCHANGES.indexOf(sec.listing);
  const book = new NbboBook(rng, sec.depthLots * shareFactor, listing, out);
  let lastNs = FIRST_MINUTE_OF_DAY * NS_PER_MINUTE;

  lastNs = book.open(lastNs + 100, path.price[0], spreadTicks(sec, FIRST_MINUTE_OF_DAY, close, rng));
  // The spread's Poisson mean (and its exp(-mean)) changes by the minute, not by the quote.
  let spreadMean = 0, spreadLimit = 1;
  // A minute's events, packed; a typed array sorts numbers without a comparator call per pair.
  let batch = new Float64Array(256);
  const sizes: number[] = [];
  // Permanent price impact of the day's trades so far: quotes and later trades see the efficient price plus it.
  let impact = 0;
  let sessionHigh = -Infinity, sessionLow = Infinity;
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    const minuteOfDay = FIRST_MINUTE_OF_DAY + m;
    const startNs = minuteOfDay * NS_PER_MINUTE;
    const expectedTrades = tradesPerActivity * intensity[m];
    const mean = expectedTrades * rng.gammaUnitMean(6);
    // A name that prints every minute on average trades in every regular-hours minute.
    const nTrades = Math.max(rng.poisson(mean), isRegularHours(minuteOfDay, close) && expectedTrades >= 1 ? 1 : 0);
    minuteTradeSizes(rng, nTrades, meanSize, sizes);
    let nextSize = 0;
    const nQuotes = rng.poisson(mean * quotesPerTrade(minuteOfDay, close));
    if (batch.length < nTrades + nQuotes + 2) batch = new Float64Array(2 * (nTrades + nQuotes + 2));
    let events = 0;
    // Each event is packed as time * 4 + kind (a whole number below 2^40) so one numeric sort orders the minute.
    for (let i = 0; i < nTrades; i++) batch[events++] = Math.floor(rng.uniform() * NS_PER_MINUTE) * 4 + EVENT_TRADE;
    for (let i = 0; i < nQuotes; i++) batch[events++] = Math.floor(rng.uniform() * NS_PER_MINUTE) * 4 + EVENT_QUOTE;
    if (minuteOfDay === OPEN_MINUTE_OF_DAY) batch[events++] = Math.floor((0.02 + 0.2 * rng.uniform()) * 1e9) * 4 + EVENT_OPEN_AUCTION;
    if (minuteOfDay === close) batch[events++] = Math.floor((0.02 + 0.3 * rng.uniform()) * 1e9) * 4 + EVENT_CLOSE_AUCTION;
    const minuteEvents = batch.subarray(0, events).sort();
    const extended = !isRegularHours(minuteOfDay, close);
    if (nQuotes > 0) {
      spreadMean = spreadMeanAt(sec, minuteOfDay, close);
      spreadLimit = Math.exp(-spreadMean);
    }
    for (const packed of minuteEvents) {
      const kind = packed % 4;
      const ns = Math.max(startNs + (packed - kind) / 4, lastNs + 1);
      const fair = efficientPrice(path, ns) + impact;
      if (kind === EVENT_QUOTE) {
        lastNs = book.update(ns, fair, 1 + rng.poisson(spreadMean, spreadLimit));
        // The session's running high and low are printed: a buyer lifts an offer at a new high of
        // the session (a seller hits a bid at a new low) on an exchange. The real tape has many
        // prints at every level, so its extremes are whole-cent prints at the quote; the generator
        // emits a fraction of them and would otherwise leave a level's only print to a TRF
        // midpoint or sub-penny fill.
        if (!extended && book.bid < book.ask) {
          for (let side = 1; side >= -1; side -= 2) {
            const quote = side === 1 ? book.ask : book.bid;
            if (side * (quote - (side === 1 ? sessionHigh : sessionLow)) <= 0) continue;
            if (side === 1) sessionHigh = quote;
            else sessionLow = quote;
            const size = extremeSize(rng);
            lastNs += 1;
            out.push(lastNs, TRADE, quote, size, drawExchange(rng, listing, false), size < 100 ? COND_ODD_LOT : COND_REGULAR);
            impact += priceImpact(book, size, meanSize, side);
          }
        }
        continue;
      }
      if (kind === EVENT_OPEN_AUCTION || kind === EVENT_CLOSE_AUCTION) {
        const tick = tickSize(fair);
        const price = round4(Math.round(fair / tick) * tick);
        const share = kind === EVENT_OPEN_AUCTION ? OPEN_AUCTION_SHARE : closeShare;
        const size = Math.max(100, Math.round((dayVolume * share * rng.gammaUnitMean(30)) / 100) * 100);
        out.push(ns, TRADE, price, size, listing, kind === EVENT_OPEN_AUCTION ? COND_OPEN_AUCTION : COND_CLOSE_AUCTION);
        lastNs = ns;
        continue;
      }
      const isTrf = rng.chance(trfProbability(minuteOfDay, close, sec.finraShare));
      const size = sizes[nextSize++];
      const { price, sweep, side } = tradePrice(rng, book, fair, isTrf);
      impact += priceImpact(book, size, meanSize, side);
      const exchange = isTrf ? TRF_EXCHANGE : drawExchange(rng, listing, extended);
      const oddLot = size < 100;
      const condition = extended
        ? (oddLot ? COND_EXTENDED_ODD_LOT : COND_EXTENDED)
        : sweep
        ? (oddLot ? COND_SWEEP_ODD_LOT : COND_SWEEP)
        : oddLot
        ? COND_ODD_LOT
        : COND_REGULAR;
      out.push(ns, TRADE, price, size, exchange, condition);
      lastNs = ns;
      if (rng.chance(CANCEL_PROBABILITY)) {
        const at = Math.floor(ns + rng.exponential(30e9));
        if (at < (FIRST_MINUTE_OF_DAY + MINUTES_PER_DAY) * NS_PER_MINUTE - 1e6) cancels.push([at, price, size, exchange, condition]);
      }
    }
  }
  return mergeCancels(out, cancels);
}

/** NBBO spread in ticks for a quote update: one tick plus a Poisson number more, the security's typical spread shaped by time of day. */
function spreadTicks(sec: Security, minuteOfDay: number, close: number, rng: Rng): number {
  return 1 + rng.poisson(spreadMeanAt(sec, minuteOfDay, close));
}

/** The Poisson mean of the ticks a spread has beyond one, at a minute of the day. */
function spreadMeanAt(sec: Security, minuteOfDay: number, close: number): number {
  return Math.max(0, sec.spreadTicks * spreadMultiplier(minuteOfDay, close) - 1);
}

/** Adds the cancels in time order; times stay strictly increasing. */
function mergeCancels(out: TickBuffer, cancels: [number, number, number, number, number][]): TickColumns {
  const base = out.columns();
  if (cancels.length === 0) return base;
  cancels.sort((a, b) => a[0] - b[0]);
  const merged = new TickBuffer(base.length + cancels.length);
  let c = 0;
  let last = 0;
  for (let i = 0; i <= base.length; i++) {
    while (c < cancels.length && (i === base.length || cancels[c][0] < base.nsOfDay[i])) {
      const [at, price, size, exchange, condition] = cancels[c++];
      last = Math.max(at, last + 1);
      merged.push(last, TRADE_CANCEL, price, size, exchange, condition);
    }
    if (i === base.length) break;
    last = Math.max(base.nsOfDay[i], last + 1);
    merged.push(last, base.type[i], base.price[i], base.size[i], base.exchange[i], base.condition[i]);
  }
  return merged.columns();
}
