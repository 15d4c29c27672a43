/**
 * 1-minute TAQ bars derived from one security-day of ticks, by the rules of the vendor's
 * field guide (shared/spec/notes.md): continuous bars 04:00-20:00, the NBBO carried forward,
 * trade fields empty when a bar has no trade, TradeAt* by the NBBO in force at each trade,
 * the tick rule over the day's trades.
 *
 * Aggregation variants: `core` counts every trade (TRF included) in the trade statistics,
 * while `Volume` and `VolumeWeightPrice` exclude TRF prints and `FinraVolume` holds them;
 * `no_finra_trf` drops TRF prints (and their cancels) from everything, so FinraVolume is 0.
 * Cancels are counted in the bar where the cancel arrives; the cancelled print stays in the
 * bar it printed in, as a real-time aggregator would have reported it.
 */
import { FIRST_MINUTE_OF_DAY, MINUTES_PER_DAY } from "../ticks/intraday.ts";
import { QUOTE_ASK, QUOTE_BID, type TickColumns, TRADE, TRADE_CANCEL, TRF_EXCHANGE } from "../ticks/tickColumns.ts";

export type Aggregation = "core" | "no_finra_trf";
export const AGGREGATIONS: readonly Aggregation[] = ["core", "no_finra_trf"];

/** Numeric bar columns by schema name, one value per minute; NaN stands for an empty field. */
export type BarColumns = Record<string, Float64Array>;

const NS_PER_MINUTE = 60e9;
const CLOSE_OFFSET = 59.999999999;
const FIELDS = [
  "OpenBarTimeOffset",
  "OpenBidPrice",
  "OpenAskPrice",
  "OpenBidSize",
  "OpenAskSize",
  "FirstTradeTimeOffset",
  "FirstTradePrice",
  "FirstTradeSize",
  "HighBidTimeOffset",
  "HighBidPrice",
  "HighBidSize",
  "HighAskTimeOffset",
  "HighAskPrice",
  "HighAskSize",
  "HighTradeTimeOffset",
  "HighTradePrice",
  "HighTradeSize",
  "LowBidTimeOffset",
  "LowBidPrice",
  "LowBidSize",
  "LowAskTimeOffset",
  "LowAskPrice",
  "LowAskSize",
  "LowTradeTimeOffset",
  "LowTradePrice",
  "LowTradeSize",
  "CloseBarTimeOffset",
  "CloseBidPrice",
  "CloseAskPrice",
  "CloseBidSize",
  "CloseAskSize",
  "LastTradeTimeOffset",
  "LastTradePrice",
  "LastTradeSize",
  "MinSpread",
  "MaxSpread",
  "CancelSize",
  "VolumeWeightPrice",
  "NBBOQuoteCount",
  "TradeAtBid",
  "TradeAtBidMid",
  "TradeAtMid",
  "TradeAtMidAsk",
  "TradeAtAsk",
  "TradeAtCrossOrLocked",
  "Volume",
  "TotalTrades",
  "FinraVolume",
  "FinraVolumeWeightPrice",
  "UptickVolume",
  "DowntickVolume",
  "RepeatUptickVolume",
  "RepeatDowntickVolume",
  "UnknownTickVolume",
  "TradeToMidVolWeight",
  "TradeToMidVolWeightRelative",
  "TimeWeightBid",
  "TimeWeightAsk",
] as const;

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/**
 * The 960 bars of a day for one aggregation variant.
 *
 * @example
 * ```ts
 * const bars = minuteBars(ticks, "core");
 * bars.Volume[330]; // exchange volume of the 09:30 bar
 * ```
 */
export function minuteBars(ticks: TickColumns, aggregation: Aggregation): BarColumns {
  const bars: BarColumns = {};
  for (const f of FIELDS) bars[f] = new Float64Array(MINUTES_PER_DAY).fill(NaN);
  const includeTrf = aggregation === "core";
  let bid = NaN, ask = NaN, bidSize = NaN, askSize = NaN;
  let lastTradePrice = NaN, lastDirection = 0; // tick rule state across the day
  let i = 0;
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    const barStart = (FIRST_MINUTE_OF_DAY + m) * NS_PER_MINUTE;
    const barEnd = barStart + NS_PER_MINUTE;
    bars.OpenBarTimeOffset[m] = 0;
    bars.OpenBidPrice[m] = bid;
    bars.OpenAskPrice[m] = ask;
    bars.OpenBidSize[m] = bidSize;
    bars.OpenAskSize[m] = askSize;
    let hiBid = bid, hiBidT = 0, hiBidS = bidSize, loBid = bid, loBidT = 0, loBidS = bidSize;
    let hiAsk = ask, hiAskT = 0, hiAskS = askSize, loAsk = ask, loAskT = 0, loAskS = askSize;
    let minSpread = NaN, maxSpread = NaN;
    if (bid === bid && ask === ask) {
      const s = Math.max(0, ask - bid);
      minSpread = s;
      maxSpread = s;
    }
    let twBid = 0, twAsk = 0, twBidT = 0, twAskT = 0, segStart = barStart;
    let quotes = 0, trades = 0, cancelSize = 0, hasCancel = false;
    let exVol = 0, exNotional = 0, trfVol = 0, trfNotional = 0;
    let atBid = 0, atBidMid = 0, atMid = 0, atMidAsk = 0, atAsk = 0, atCross = 0;
    let up = 0, down = 0, repUp = 0, repDown = 0, unknown = 0;
    let ttmNum = 0, ttmVol = 0, relNum = 0, relVol = 0;
    let firstT = NaN, firstP = NaN, firstS = NaN, lastT = NaN, lastP = NaN, lastS = NaN;
    let hiT = NaN, hiP = NaN, hiS = NaN, loT = NaN, loP = NaN, loS = NaN;

    for (; i < ticks.length && ticks.nsOfDay[i] < barEnd; i++) {
      const type = ticks.type[i];
      const price = ticks.price[i];
      const size = ticks.size[i];
      const offset = (ticks.nsOfDay[i] - barStart) / 1e9;
      if (type === QUOTE_BID || type === QUOTE_ASK) {
        // The quote in force until now closes its time-weighted segment.
        const until = ticks.nsOfDay[i], dt = until - segStart;
        if (bid === bid) {
          twBid += bid * dt;
          twBidT += dt;
        }
        if (ask === ask) {
          twAsk += ask * dt;
          twAskT += dt;
        }
        segStart = until;
        quotes++;
        if (type === QUOTE_BID) {
          bid = price;
          bidSize = size;
          if (!(price <= hiBid)) {
            hiBid = price;
            hiBidT = offset;
            hiBidS = size;
          }
          if (!(price >= loBid)) {
            loBid = price;
            loBidT = offset;
            loBidS = size;
          }
        } else {
          ask = price;
          askSize = size;
          if (!(price <= hiAsk)) {
            hiAsk = price;
            hiAskT = offset;
            hiAskS = size;
          }
          if (!(price >= loAsk)) {
            loAsk = price;
            loAskT = offset;
            loAskS = size;
          }
        }
        if (bid === bid && ask === ask) {
          const s = Math.max(0, ask - bid);
          if (!(s >= minSpread)) minSpread = s;
          if (!(s <= maxSpread)) maxSpread = s;
        }
        continue;
      }
      const isTrf = ticks.exchange[i] === TRF_EXCHANGE;
      if (isTrf && !includeTrf) continue;
      if (type === TRADE_CANCEL) {
        cancelSize += size;
        hasCancel = true;
        continue;
      }
      if (type !== TRADE) continue;
      trades++;
      if (isTrf) {
        trfVol += size;
        trfNotional += size * price;
      } else {
        exVol += size;
        exNotional += size * price;
      }
      if (firstT !== firstT) {
        firstT = offset;
        firstP = price;
        firstS = size;
      }
      lastT = offset;
      lastP = price;
      lastS = size;
      if (!(price <= hiP)) {
        hiP = price;
        hiT = offset;
        hiS = size;
      }
      if (!(price >= loP)) {
        loP = price;
        loT = offset;
        loS = size;
      }
      // Trade against the NBBO in force.
      if (bid === bid && ask === ask) {
        const mid = (bid + ask) / 2;
        // Compared in units of $0.0001 so a print at a half-cent mid counts as at the mid.
        const p = Math.round(price * 1e4), b = Math.round(bid * 1e4), a = Math.round(ask * 1e4);
        if (b >= a) atCross += size;
        else if (p <= b) atBid += size;
        else if (2 * p < a + b) atBidMid += size;
        else if (2 * p === a + b) atMid += size;
        else if (p < a) atMidAsk += size;
        else atAsk += size;
        ttmNum += size * (price - mid);
        ttmVol += size;
        if (ask > bid) {
          relNum += (size * (price - mid)) / (ask - bid);
          relVol += size;
        }
      }
      // Tick rule.
      if (lastTradePrice !== lastTradePrice) unknown += size;
      else if (price > lastTradePrice) {
        up += size;
        lastDirection = 1;
      } else if (price < lastTradePrice) {
        down += size;
        lastDirection = -1;
      } else if (lastDirection === 1) repUp += size;
      else if (lastDirection === -1) repDown += size;
      else unknown += size;
      lastTradePrice = price;
    }
    {
      const dt = barEnd - segStart;
      if (bid === bid) {
        twBid += bid * dt;
        twBidT += dt;
      }
      if (ask === ask) {
        twAsk += ask * dt;
        twAskT += dt;
      }
    }

    bars.FirstTradeTimeOffset[m] = firstT;
    bars.FirstTradePrice[m] = firstP;
    bars.FirstTradeSize[m] = firstS;
    bars.HighBidTimeOffset[m] = hiBid === hiBid ? hiBidT : NaN;
    bars.HighBidPrice[m] = hiBid;
    bars.HighBidSize[m] = hiBidS;
    bars.HighAskTimeOffset[m] = hiAsk === hiAsk ? hiAskT : NaN;
    bars.HighAskPrice[m] = hiAsk;
    bars.HighAskSize[m] = hiAskS;
    bars.HighTradeTimeOffset[m] = hiT;
    bars.HighTradePrice[m] = hiP;
    bars.HighTradeSize[m] = hiS;
    bars.LowBidTimeOffset[m] = loBid === loBid ? loBidT : NaN;
    bars.LowBidPrice[m] = loBid;
    bars.LowBidSize[m] = loBidS;
    bars.LowAskTimeOffset[m] = loAsk === loAsk ? loAskT : NaN;
    bars.LowAskPrice[m] = loAsk;
    bars.LowAskSize[m] = loAskS;
    bars.LowTradeTimeOffset[m] = loT;
    bars.LowTradePrice[m] = loP;
    bars.LowTradeSize[m] = loS;
    bars.CloseBarTimeOffset[m] = CLOSE_OFFSET;
    bars.CloseBidPrice[m] = bid;
    bars.CloseAskPrice[m] = ask;
    bars.CloseBidSize[m] = bidSize;
    bars.CloseAskSize[m] = askSize;
    bars.LastTradeTimeOffset[m] = lastT;
    bars.LastTradePrice[m] = lastP;
    bars.LastTradeSize[m] = lastS;
    bars.MinSpread[m] = round(minSpread, 4);
    bars.MaxSpread[m] = round(maxSpread, 4);
    bars.CancelSize[m] = hasCancel ? cancelSize : NaN;
    bars.VolumeWeightPrice[m] = exVol > 0 ? round(exNotional / exVol, 6) : NaN;
    bars.NBBOQuoteCount[m] = quotes;
    bars.TradeAtBid[m] = atBid;
    bars.TradeAtBidMid[m] = atBidMid;
    bars.TradeAtMid[m] = atMid;
    bars.TradeAtMidAsk[m] = atMidAsk;
    bars.TradeAtAsk[m] = atAsk;
    bars.TradeAtCrossOrLocked[m] = atCross;
    bars.Volume[m] = exVol;
    bars.TotalTrades[m] = trades;
    bars.FinraVolume[m] = trfVol;
    bars.FinraVolumeWeightPrice[m] = trfVol > 0 ? round(trfNotional / trfVol, 6) : NaN;
    bars.UptickVolume[m] = up;
    bars.DowntickVolume[m] = down;
    bars.RepeatUptickVolume[m] = repUp;
    bars.RepeatDowntickVolume[m] = repDown;
    bars.UnknownTickVolume[m] = unknown;
    bars.TradeToMidVolWeight[m] = ttmVol > 0 ? round(ttmNum / ttmVol, 6) : NaN;
    bars.TradeToMidVolWeightRelative[m] = relVol > 0 ? round(relNum / relVol, 6) : NaN;
    bars.TimeWeightBid[m] = twBidT > 0 ? round(twBid / twBidT, 6) : NaN;
    bars.TimeWeightAsk[m] = twAskT > 0 ? round(twAsk / twAskT, 6) : NaN;
  }
  return bars;
}
