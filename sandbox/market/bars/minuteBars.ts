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
  "OpenBarTimeOffset", "OpenBidPrice", "OpenAskPrice", "OpenBidSize", "OpenAskSize",
  "FirstTradeTimeOffset", "FirstTradePrice", "FirstTradeSize",
  "HighBidTimeOffset", "HighBidPrice", "HighBidSize", "HighAskTimeOffset", "HighAskPrice", "HighAskSize",
  "HighTradeTimeOffset", "HighTradePrice", "HighTradeSize",
  "LowBidTimeOffset", "LowBidPrice", "LowBidSize", "LowAskTimeOffset", "LowAskPrice", "LowAskSize",
  "LowTradeTimeOffset", "LowTradePrice", "LowTradeSize",
  "CloseBarTimeOffset", "CloseBidPrice", "CloseAskPrice", "CloseBidSize", "CloseAskSize",
  "LastTradeTimeOffset", "LastTradePrice", "LastTradeSize",
  "MinSpread", "MaxSpread", "CancelSize", "VolumeWeightPrice", "NBBOQuoteCount",
  "TradeAtBid", "TradeAtBidMid", "TradeAtMid", "TradeAtMidAsk", "TradeAtAsk", "TradeAtCrossOrLocked",
  "Volume", "TotalTrades", "FinraVolume", "FinraVolumeWeightPrice",
  "UptickVolume", "DowntickVolume", "RepeatUptickVolume", "RepeatDowntickVolume", "UnknownTickVolume",
  "TradeToMidVolWeight", "TradeToMidVolWeightRelative", "TimeWeightBid", "TimeWeightAsk",
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
    const set = (field: (typeof FIELDS)[number], value: number) => (bars[field][m] = value);
    set("OpenBarTimeOffset", 0);
    set("OpenBidPrice", bid); set("OpenAskPrice", ask); set("OpenBidSize", bidSize); set("OpenAskSize", askSize);
    let hiBid = bid, hiBidT = 0, hiBidS = bidSize, loBid = bid, loBidT = 0, loBidS = bidSize;
    let hiAsk = ask, hiAskT = 0, hiAskS = askSize, loAsk = ask, loAskT = 0, loAskS = askSize;
    let minSpread = NaN, maxSpread = NaN;
    const noteSpread = () => {
      if (bid === bid && ask === ask) {
        const s = Math.max(0, ask - bid);
        if (!(s >= minSpread)) minSpread = s;
        if (!(s <= maxSpread)) maxSpread = s;
      }
    };
    noteSpread();
    let twBid = 0, twAsk = 0, twBidT = 0, twAskT = 0, segStart = barStart;
    const closeSegment = (until: number) => {
      const dt = until - segStart;
      if (bid === bid) { twBid += bid * dt; twBidT += dt; }
      if (ask === ask) { twAsk += ask * dt; twAskT += dt; }
      segStart = until;
    };
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
        closeSegment(ticks.nsOfDay[i]);
        quotes++;
        if (type === QUOTE_BID) {
          bid = price; bidSize = size;
          if (!(price <= hiBid)) { hiBid = price; hiBidT = offset; hiBidS = size; }
          if (!(price >= loBid)) { loBid = price; loBidT = offset; loBidS = size; }
        } else {
          ask = price; askSize = size;
          if (!(price <= hiAsk)) { hiAsk = price; hiAskT = offset; hiAskS = size; }
          if (!(price >= loAsk)) { loAsk = price; loAskT = offset; loAskS = size; }
        }
        noteSpread();
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
      if (isTrf) { trfVol += size; trfNotional += size * price; } else { exVol += size; exNotional += size * price; }
      if (firstT !== firstT) { firstT = offset; firstP = price; firstS = size; }
      lastT = offset; lastP = price; lastS = size;
      if (!(price <= hiP)) { hiP = price; hiT = offset; hiS = size; }
      if (!(price >= loP)) { loP = price; loT = offset; loS = size; }
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
        ttmNum += size * (price - mid); ttmVol += size;
        if (ask > bid) { relNum += (size * (price - mid)) / (ask - bid); relVol += size; }
      }
      // Tick rule.
      if (lastTradePrice !== lastTradePrice) unknown += size;
      else if (price > lastTradePrice) { up += size; lastDirection = 1; }
      else if (price < lastTradePrice) { down += size; lastDirection = -1; }
      else if (lastDirection === 1) repUp += size;
      else if (lastDirection === -1) repDown += size;
      else unknown += size;
      lastTradePrice = price;
    }
    closeSegment(barEnd);

    set("FirstTradeTimeOffset", firstT); set("FirstTradePrice", firstP); set("FirstTradeSize", firstS);
    set("HighBidTimeOffset", hiBid === hiBid ? hiBidT : NaN); set("HighBidPrice", hiBid); set("HighBidSize", hiBidS);
    set("HighAskTimeOffset", hiAsk === hiAsk ? hiAskT : NaN); set("HighAskPrice", hiAsk); set("HighAskSize", hiAskS);
    set("HighTradeTimeOffset", hiT); set("HighTradePrice", hiP); set("HighTradeSize", hiS);
    set("LowBidTimeOffset", loBid === loBid ? loBidT : NaN); set("LowBidPrice", loBid); set("LowBidSize", loBidS);
    set("LowAskTimeOffset", loAsk === loAsk ? loAskT : NaN); set("LowAskPrice", loAsk); set("LowAskSize", loAskS);
    set("LowTradeTimeOffset", loT); set("LowTradePrice", loP); set("LowTradeSize", loS);
    set("CloseBarTimeOffset", CLOSE_OFFSET);
    set("CloseBidPrice", bid); set("CloseAskPrice", ask); set("CloseBidSize", bidSize); set("CloseAskSize", askSize);
    set("LastTradeTimeOffset", lastT); set("LastTradePrice", lastP); set("LastTradeSize", lastS);
    set("MinSpread", round(minSpread, 4)); set("MaxSpread", round(maxSpread, 4));
    set("CancelSize", hasCancel ? cancelSize : NaN);
    set("VolumeWeightPrice", exVol > 0 ? round(exNotional / exVol, 6) : NaN);
    set("NBBOQuoteCount", quotes);
    set("TradeAtBid", atBid); set("TradeAtBidMid", atBidMid); set("TradeAtMid", atMid);
    set("TradeAtMidAsk", atMidAsk); set("TradeAtAsk", atAsk); set("TradeAtCrossOrLocked", atCross);
    set("Volume", exVol); set("TotalTrades", trades);
    set("FinraVolume", trfVol); set("FinraVolumeWeightPrice", trfVol > 0 ? round(trfNotional / trfVol, 6) : NaN);
    set("UptickVolume", up); set("DowntickVolume", down); set("RepeatUptickVolume", repUp);
    set("RepeatDowntickVolume", repDown); set("UnknownTickVolume", unknown);
    set("TradeToMidVolWeight", ttmVol > 0 ? round(ttmNum / ttmVol, 6) : NaN);
    set("TradeToMidVolWeightRelative", relVol > 0 ? round(relNum / relVol, 6) : NaN);
    set("TimeWeightBid", twBidT > 0 ? round(twBid / twBidT, 6) : NaN);
    set("TimeWeightAsk", twAskT > 0 ? round(twAsk / twAskT, 6) : NaN);
  }
  return bars;
}
