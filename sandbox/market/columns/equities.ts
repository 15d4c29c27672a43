/** Column schemas of the equity datasets, in the order the service returns them. */
import { col, type Column } from "../schema.ts";

const NULLABLE = true;

/** NBBO or trade point of a bar: time offset (s from bar start), price, size. */
function barPoint(prefix: string, what: string, nullable: boolean): Column[] {
  return [
    col(`${prefix}TimeOffset`, "float64", `seconds from bar start of the ${what}`, nullable),
    col(`${prefix}Price`, "float64", `price of the ${what}`, nullable),
    col(`${prefix}Size`, "int64", `shares of the ${what}`, nullable),
  ];
}

export const EQ_TAQ_1MIN_COLUMNS: Column[] = [
  col("TradeDate", "date", "trading day"),
  col("BarDateTime", "datetime_ns", "bar start, New York time; the bar covers [start, start + 1 min)"),
  col("Ticker", "string", "ticker on the trading day"),
  col("ASID", "int64", "persistent security identifier"),
  col("OpenBarTimeOffset", "float64", "seconds from bar start of the opening NBBO (always 0)"),
  col("OpenBidPrice", "float64", "NBBO bid at bar open (carried forward)", NULLABLE),
  col("OpenAskPrice", "float64", "NBBO ask at bar open (carried forward)", NULLABLE),
  col("OpenBidSize", "int64", "shares bid at the NBBO bid at bar open", NULLABLE),
  col("OpenAskSize", "int64", "shares offered at the NBBO ask at bar open", NULLABLE),
  ...barPoint("FirstTrade", "first trade of the bar", NULLABLE),
  ...barPoint("HighBid", "highest NBBO bid of the bar (first time reached)", NULLABLE),
  ...barPoint("HighAsk", "highest NBBO ask of the bar (first time reached)", NULLABLE),
  ...barPoint("HighTrade", "highest trade of the bar (first time reached)", NULLABLE),
  ...barPoint("LowBid", "lowest NBBO bid of the bar (first time reached)", NULLABLE),
  ...barPoint("LowAsk", "lowest NBBO ask of the bar (first time reached)", NULLABLE),
  ...barPoint("LowTrade", "lowest trade of the bar (first time reached)", NULLABLE),
  col("CloseBarTimeOffset", "float64", "seconds from bar start of the closing NBBO (59.999999999)"),
  col("CloseBidPrice", "float64", "NBBO bid at bar close", NULLABLE),
  col("CloseAskPrice", "float64", "NBBO ask at bar close", NULLABLE),
  col("CloseBidSize", "int64", "shares at the NBBO bid at bar close", NULLABLE),
  col("CloseAskSize", "int64", "shares at the NBBO ask at bar close", NULLABLE),
  ...barPoint("LastTrade", "last trade of the bar", NULLABLE),
  col("MinSpread", "float64", "smallest NBBO spread in the bar; 0 when locked or crossed", NULLABLE),
  col("MaxSpread", "float64", "largest NBBO spread in the bar", NULLABLE),
  col("CancelSize", "int64", "shares of trades cancelled in the bar; empty when none", NULLABLE),
  col("VolumeWeightPrice", "float64", "VWAP of exchange trades (TRF excluded); empty when none", NULLABLE),
  col("NBBOQuoteCount", "int64", "NBBO updates in the bar"),
  col("TradeAtBid", "int64", "volume traded at or below the bid"),
  col("TradeAtBidMid", "int64", "volume traded between bid and mid"),
  col("TradeAtMid", "int64", "volume traded at the mid"),
  col("TradeAtMidAsk", "int64", "volume traded between mid and ask"),
  col("TradeAtAsk", "int64", "volume traded at or above the ask"),
  col("TradeAtCrossOrLocked", "int64", "volume traded while the NBBO was locked or crossed"),
  col("Volume", "int64", "shares traded on exchanges (TRF excluded)"),
  col("TotalTrades", "int64", "number of trades counted by the aggregation"),
  col("FinraVolume", "int64", "shares reported to a FINRA TRF (0 under no_finra_trf)"),
  col("FinraVolumeWeightPrice", "float64", "VWAP of TRF trades; empty when none", NULLABLE),
  col("UptickVolume", "int64", "volume of trades above the previous trade"),
  col("DowntickVolume", "int64", "volume of trades below the previous trade"),
  col("RepeatUptickVolume", "int64", "volume at the previous price after an uptick"),
  col("RepeatDowntickVolume", "int64", "volume at the previous price after a downtick"),
  col("UnknownTickVolume", "int64", "volume whose tick direction is unknown (first trades of the day)"),
  col("TradeToMidVolWeight", "float64", "volume-weighted mean of trade price minus NBBO mid, in dollars", NULLABLE),
  col(
    "TradeToMidVolWeightRelative",
    "float64",
    "volume-weighted mean of (price - mid) / spread over trades with a positive spread",
    NULLABLE,
  ),
  col("TimeWeightBid", "float64", "time-weighted NBBO bid over the bar", NULLABLE),
  col("TimeWeightAsk", "float64", "time-weighted NBBO ask over the bar", NULLABLE),
];

export const EQ_DAILY_OHLC_COLUMNS: Column[] = [
  col("TradeDate", "date", "trading day"),
  col("Ticker", "string", "ticker on the trading day"),
  col("ASID", "int64", "persistent security identifier"),
  col("OpenPrice", "float64", "opening auction price (first regular-hours trade when there was no auction)", NULLABLE),
  col("HighPrice", "float64", "highest market-hours trade (auctions included)", NULLABLE),
  col("LowPrice", "float64", "lowest market-hours trade (auctions included)", NULLABLE),
  col("ClosePrice", "float64", "closing auction price (last regular-hours trade when there was no auction)", NULLABLE),
  col("MarketHoursVolume", "int64", "exchange shares in market hours, auctions included (TRF excluded)"),
  col("MarketHoursFinraVolume", "int64", "TRF shares in market hours"),
  col("DailyVolume", "int64", "exchange shares 04:00-20:00 (TRF excluded)"),
  col("DailyFinraVolume", "int64", "TRF shares 04:00-20:00"),
  col("MarketHoursVWAP", "float64", "VWAP of every market-hours trade, exchange and TRF", NULLABLE),
  col("DailyVWAP", "float64", "VWAP of every trade 04:00-20:00, exchange and TRF", NULLABLE),
];

export const EQ_TAQ_COLUMNS: Column[] = [
  col("TradeDate", "date", "trading day"),
  col("EventDateTime", "datetime_ns", "event time, New York time, nanosecond precision"),
  col("EventType", "string", "TRADE, QUOTE BID, QUOTE ASK or TRADE CANCEL"),
  col("Ticker", "string", "ticker on the trading day"),
  col("ASID", "int64", "persistent security identifier"),
  col("Price", "float64", "trade price, or the new NBBO bid or ask"),
  col("Quantity", "int64", "shares traded, or shares at the new NBBO price"),
  col("Exchange", "string", "market center code; D is a FINRA trade reporting facility (off-exchange)"),
  col(
    "ConditionCode",
    "string",
    "sale condition (@ regular, F ISO, T extended hours, I odd lot, O opening auction, 6 closing auction) or R for quotes",
  ),
];
