/**
 * What minute bars can say about trading costs: the bar's net trade-to-mid, an order-imbalance
 * measure, not an effective spread.
 *
 * A bar keeps only aggregates of its trades. Its consolidated VWAP (exchange `Volume` at
 * `VolumeWeightPrice` with TRF `FinraVolume` at `FinraVolumeWeightPrice`) minus its
 * time-weighted NBBO midpoint M is the minute's net trade-to-mid: a buy at the ask and a sell
 * at the bid in the same minute cancel, so 2·|VWAP − M| / M measures how one-sided the
 * minute's order flow was (an order-imbalance measure). It is not the trades' effective
 * spread: netting pulls it below, and the midpoint's drift within the minute (each trade met
 * the midpoint of its instant, not the minute's average) pushes it either way. Compare it with
 * the tick-level effective spread before reading it as a cost.
 *
 * `TradeToMidVolWeight` is not used: the service's spec defines it as a volume-weighted SUM of
 * (P − M) over the minute's trades, so its size grows with the number of trades (the sandbox
 * writes the mean; docs/market.md), and only its sign would carry over.
 *
 * Continuous trading only: the open's bar (09:30, which holds the opening auction) and the
 * close's bar and later (the closing auction) are left out, as are bars with no trade or a
 * locked or crossed time-weighted quote.
 */
import pl from "nodejs-polars";
import { withSessionColumns } from "../calendar.ts";
import { QueryError } from "../errors/base.ts";

const NEEDED = [
  "TradeDate",
  "Ticker",
  "BarDateTime",
  "TimeWeightBid",
  "TimeWeightAsk",
  "Volume",
  "VolumeWeightPrice",
  "FinraVolume",
  "FinraVolumeWeightPrice",
];
/** 09:30, the open's bar on every NYSE day. */
const OPEN_MINUTE = 570;

/**
 * One row per continuous-trading minute bar with trades (any tickers and days of
 * `eq-taq-1min`, `core` aggregation so TRF prints count): TradeDate, Ticker, BarDateTime,
 * MinuteOfDay, Mid (time-weighted, dollars), Vwap (consolidated, dollars), DollarVolume
 * (dollars), QuotedBps (time-weighted spread, bps of Mid), NetTradeToMidBps (2·(Vwap − Mid)/Mid,
 * bps, signed) and ImbalanceBps (its absolute value).
 *
 * @example
 * ```ts
 * const bars = await wb.data.eqTaq1Min("AAPL", { start: "2023-11-20", end: "2023-11-24" });
 * barImbalance(bars).select(pl.col("ImbalanceBps").mul(pl.col("DollarVolume")).sum().div(pl.col("DollarVolume").sum()));
 * ```
 */
export function barImbalance(bars: pl.DataFrame): pl.DataFrame {
  const missing = NEEDED.filter((c) => !bars.columns.includes(c));
  if (missing.length > 0) {
    throw new QueryError(`barImbalance needs the minute-bar columns ${missing.join(", ")}; the frame has ${bars.columns.join(", ")}`);
  }
  const exchange = pl.col("Volume").cast(pl.Float64).fillNull(pl.lit(0));
  const trf = pl.col("FinraVolume").cast(pl.Float64).fillNull(pl.lit(0));
  const dollars = exchange.mul(pl.col("VolumeWeightPrice").fillNull(pl.lit(0))).add(
    trf.mul(pl.col("FinraVolumeWeightPrice").fillNull(pl.lit(0))),
  );
  const [bid, ask] = [pl.col("TimeWeightBid"), pl.col("TimeWeightAsk")];
  const netBps = pl.col("Vwap").sub(pl.col("Mid")).div(pl.col("Mid")).mul(2e4);
  return withSessionColumns(bars, "BarDateTime")
    .filter(pl.col("Session").eq(pl.lit("regular")).and(pl.col("MinuteOfDay").gt(OPEN_MINUTE)))
    .select(
      "TradeDate",
      "Ticker",
      "BarDateTime",
      "MinuteOfDay",
      bid.add(ask).div(2).alias("Mid"),
      bid.lt(ask).alias("Usable"),
      dollars.alias("DollarVolume"),
      dollars.div(exchange.add(trf)).alias("Vwap"),
      ask.sub(bid).div(bid.add(ask).div(2)).mul(1e4).alias("QuotedBps"),
    )
    .filter(pl.col("Usable").and(pl.col("DollarVolume").gt(0)))
    .withColumns(netBps.alias("NetTradeToMidBps"), netBps.abs().alias("ImbalanceBps"))
    .drop("Usable");
}
