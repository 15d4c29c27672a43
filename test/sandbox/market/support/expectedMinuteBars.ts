/**
 * An independent recomputation of the 960 one-minute bars of a security-day from its ticks,
 * written as Polars expressions from the field guide's rules rather than by replaying the
 * generator's event loop, so a shared mistake is unlikely.
 */
import pl from "nodejs-polars";
import { BARS_PER_DAY, NS_PER_MINUTE, roundHalfUp } from "./marketFiles.ts";

export type Aggregation = "core" | "no_finra_trf";

/** Columns whose values are computed (rounded means, spreads), compared with a tolerance. */
export const DERIVED_COLUMNS = new Set([
  "MinSpread",
  "MaxSpread",
  "VolumeWeightPrice",
  "FinraVolumeWeightPrice",
  "TradeToMidVolWeight",
  "TradeToMidVolWeightRelative",
  "TimeWeightBid",
  "TimeWeightAsk",
]);

const NBBO_FIELDS = [["bid", "BidPrice"], ["bidSize", "BidSize"], ["ask", "AskPrice"], ["askSize", "AskSize"]] as const;
const TRADE_AT = ["Bid", "BidMid", "Mid", "MidAsk", "Ask", "CrossOrLocked"] as const;
const TICKS = [["up", "UptickVolume"], ["down", "DowntickVolume"], ["repeatUp", "RepeatUptickVolume"], [
  "repeatDown",
  "RepeatDowntickVolume",
], ["unknown", "UnknownTickVolume"]] as const;

// Expression lists are built once per kind (`once`): nodejs-polars makes every Expr a large
// object of closures, and building the same ones again per security-day cost more than
// Polars' own work.
const built = new Map<string, pl.Expr[]>();
const once = (key: string, build: () => pl.Expr[]): pl.Expr[] => built.get(key) ?? built.set(key, build()).get(key)!;

const seconds = (ns: pl.Expr) => ns.cast(pl.Float64).div(1e9);
const int = (value: number) => pl.lit(value).cast(pl.Int64);
const when = (cond: pl.Expr, value: pl.Expr) => pl.when(cond).then(value).otherwise(pl.lit(null));

/**
 * Time offset, price and size of a bar point over candidate rows (`barNs`, `price`, `size`,
 * `seq`): the first or last row in time, or the first row reaching the max or min price.
 */
function barPoint(prefix: string, pick: "first" | "last" | "max" | "min"): pl.Expr[] {
  return once(`barPoint ${prefix} ${pick}`, () => barPointExprs(prefix, pick));
}

function barPointExprs(prefix: string, pick: "first" | "last" | "max" | "min"): pl.Expr[] {
  const ordered = (c: string) => pl.col(c).sortBy("seq");
  const at = (c: string) =>
    pick === "first"
      ? ordered(c).first()
      : pick === "last"
      ? ordered(c).last()
      : ordered(c).filter(ordered("price").eq(pl.col("price")[pick]())).first();
  return [seconds(at("barNs")).alias(`${prefix}TimeOffset`), at("price").alias(`${prefix}Price`), at("size").alias(`${prefix}Size`)];
}

/** NBBO at each bar's open and close: the state after the bar's last event, carried across empty bars. */
function nbboByBar(ticks: pl.DataFrame, bars: pl.DataFrame): pl.DataFrame {
  const closes = ticks.groupBy("bar").agg(...once("nbbo closes", () => NBBO_FIELDS.map(([state]) => pl.col(state).last())));
  return bars.join(closes, { on: "bar", how: "left" }).sort("bar").select(...once("nbbo", () => [
    pl.col("bar"),
    ...NBBO_FIELDS.flatMap(([state, name]) => [
      pl.col(state).forwardFill().alias(`Close${name}`),
      // No tick precedes 04:00, so the first bar opens with no quote.
      pl.col(state).forwardFill().shift(1).alias(`Open${name}`),
    ]),
  ]));
}

/** High and low of one NBBO side: over the opening state (offset 0) and the bar's updates of that side. */
function sideExtremes(ticks: pl.DataFrame, nbbo: pl.DataFrame, side: "Bid" | "Ask"): pl.DataFrame {
  const [priced, isSide] = once(
    `side filters ${side}`,
    () => [pl.col("price").isNotNull(), pl.col("EventType").eq(pl.lit(`QUOTE ${side.toUpperCase()}`))],
  );
  const opens = nbbo.select(...once(`side opens ${side}`, () => [
    pl.col("bar"),
    pl.col(`Open${side}Price`).alias("price"),
    pl.col(`Open${side}Size`).alias("size"),
    int(0).alias("barNs"),
    int(-1).alias("seq"),
  ])).filter(priced);
  const updates = ticks.filter(isSide).select(...once("side updates", () => [
    pl.col("bar"),
    pl.col("Price").alias("price"),
    pl.col("Quantity").alias("size"),
    pl.col("barNs"),
    pl.col("seq").cast(pl.Int64),
  ]));
  return pl.concat([opens, updates]).groupBy("bar").agg(...barPoint(`High${side}`, "max"), ...barPoint(`Low${side}`, "min"));
}

/** Spreads and time-weighted sides over the NBBO states a bar passes through. */
function quoteStatistics(ticks: pl.DataFrame, nbbo: pl.DataFrame): pl.DataFrame {
  const [isQuote, firstQuoteNs] = once("quote filters", () => [pl.col("isQuote"), pl.col("barNs").min().alias("firstQuoteNs")]);
  const quotes = ticks.filter(isQuote);
  const firstQuote = quotes.groupBy("bar").agg(firstQuoteNs);
  const opens = nbbo.join(firstQuote, { on: "bar", how: "left" }).select(...once("quote opens", () => [
    pl.col("bar"),
    pl.col("OpenBidPrice").alias("bid"),
    pl.col("OpenAskPrice").alias("ask"),
    pl.col("firstQuoteNs").fillNull(NS_PER_MINUTE).alias("dt"),
  ]));
  // Each update's state lasts until the next update of either side, or the end of the bar.
  const updates = quotes.select(...once("quote updates", () => [
    pl.col("bar"),
    pl.col("bid"),
    pl.col("ask"),
    pl.col("barNs").shift(-1).over("bar").fillNull(NS_PER_MINUTE).minus(pl.col("barNs")).alias("dt"),
  ]));
  return pl.concat([opens, updates]).groupBy("bar").agg(...once("quote statistics", () => {
    const gap = pl.col("ask").minus(pl.col("bid"));
    const spread = pl.when(gap.lt(0)).then(pl.lit(0).cast(pl.Float64)).otherwise(gap);
    const weighted = (side: string) => {
      const time = pl.col("dt").filter(pl.col(side).isNotNull()).sum();
      return when(time.gt(0), roundHalfUp(pl.col(side).mul(pl.col("dt")).sum().div(time), 6));
    };
    return [
      roundHalfUp(spread.min(), 4).alias("MinSpread"),
      roundHalfUp(spread.max(), 4).alias("MaxSpread"),
      weighted("bid").alias("TimeWeightBid"),
      weighted("ask").alias("TimeWeightAsk"),
    ];
  }));
}

/** The counted trades of the day with their tick-rule class and their place against the NBBO. */
function classifiedTrades(ticks: pl.DataFrame, aggregation: Aggregation): pl.DataFrame {
  const [counted, ...steps] = once(`classify ${aggregation}`, () => classifyExprs(aggregation));
  // Each step's columns use the previous step's: [move, at, toMid...], [lastMove], [tick, price, size, seq].
  return ticks.filter(counted).withColumns(...steps.slice(0, 6)).withColumns(steps[6]).withColumns(...steps.slice(7));
}

/** [filter of counted trades, then the three steps' columns, flattened]. */
function classifyExprs(aggregation: Aggregation): pl.Expr[] {
  const counted = aggregation === "core" ? pl.col("isTrade") : pl.col("isTrade").and(pl.col("isTrf").not());
  const price = pl.col("Price"), prev = pl.col("Price").shift(1);
  const units = (c: string) => pl.col(c).mul(1e4).round(0).cast(pl.Int64);
  const [p, b, a] = [units("Price"), units("bid"), units("ask")];
  const quoted = pl.col("bid").isNotNull().and(pl.col("ask").isNotNull());
  const mid = pl.col("bid").plus(pl.col("ask")).div(2);
  return [
    counted,
    pl.when(prev.isNull()).then(pl.lit(null)).when(price.gt(prev)).then(int(1))
      .when(price.lt(prev)).then(int(-1)).otherwise(int(0)).alias("move"),
    pl.when(quoted.not()).then(pl.lit(null)).when(b.gtEq(a)).then(pl.lit("CrossOrLocked"))
      .when(p.lessThanEquals(b)).then(pl.lit("Bid")).when(p.mul(2).lt(a.plus(b))).then(pl.lit("BidMid"))
      .when(p.mul(2).eq(a.plus(b))).then(pl.lit("Mid")).when(p.lt(a)).then(pl.lit("MidAsk"))
      .otherwise(pl.lit("Ask")).alias("at"),
    when(quoted, pl.col("Quantity").mul(price.minus(mid))).alias("toMid"),
    when(quoted, pl.col("Quantity")).alias("toMidSize"),
    when(pl.col("ask").gt(pl.col("bid")), pl.col("Quantity").mul(price.minus(mid)).div(pl.col("ask").minus(pl.col("bid")))).alias(
      "toMidRel",
    ),
    when(pl.col("ask").gt(pl.col("bid")), pl.col("Quantity")).alias("toMidRelSize"),
    // The direction of the last price change so far, for trades at an unchanged price.
    pl.when(pl.col("move").eq(0)).then(pl.lit(null)).otherwise(pl.col("move")).forwardFill().alias("lastMove"),
    pl.when(pl.col("move").isNull()).then(pl.lit("unknown"))
      .when(pl.col("move").eq(1)).then(pl.lit("up")).when(pl.col("move").eq(-1)).then(pl.lit("down"))
      .when(pl.col("lastMove").eq(1)).then(pl.lit("repeatUp")).when(pl.col("lastMove").eq(-1)).then(pl.lit("repeatDown"))
      .otherwise(pl.lit("unknown")).alias("tick"),
    price.alias("price"),
    pl.col("Quantity").alias("size"),
    pl.col("seq").cast(pl.Int64),
  ];
}

/** Per-bar trade statistics of the counted trades. */
function tradeStatistics(trades: pl.DataFrame): pl.DataFrame {
  return trades.groupBy("bar").agg(...once("trade statistics", tradeStatisticsExprs));
}

function tradeStatisticsExprs(): pl.Expr[] {
  const size = pl.col("Quantity"), trf = pl.col("isTrf");
  const shares = (where: pl.Expr) => size.filter(where).sum();
  const vwap = (where: pl.Expr) =>
    when(shares(where).gt(0), roundHalfUp(size.mul(pl.col("Price")).filter(where).sum().div(shares(where)), 6));
  const ratio = (num: string, den: string) => when(pl.col(den).sum().gt(0), roundHalfUp(pl.col(num).sum().div(pl.col(den).sum()), 6));
  return [
    ...barPoint("FirstTrade", "first"),
    ...barPoint("LastTrade", "last"),
    ...barPoint("HighTrade", "max"),
    ...barPoint("LowTrade", "min"),
    pl.col("Price").count().alias("TotalTrades"),
    shares(trf.not()).alias("Volume"),
    shares(trf).alias("FinraVolume"),
    vwap(trf.not()).alias("VolumeWeightPrice"),
    vwap(trf).alias("FinraVolumeWeightPrice"),
    ...TRADE_AT.map((at) => shares(pl.col("at").eq(pl.lit(at))).alias(`TradeAt${at}`)),
    ...TICKS.map(([tick, name]) => shares(pl.col("tick").eq(pl.lit(tick))).alias(name)),
    ratio("toMid", "toMidSize").alias("TradeToMidVolWeight"),
    ratio("toMidRel", "toMidRelSize").alias("TradeToMidVolWeightRelative"),
  ];
}

/** Columns that are 0, not empty, in a bar without the events they count. */
const ZERO_WHEN_EMPTY = [
  "NBBOQuoteCount",
  "TotalTrades",
  "Volume",
  "FinraVolume",
  ...TRADE_AT.map((at) => `TradeAt${at}`),
  ...TICKS.map(([, name]) => name),
];

/**
 * The expected bars (`bar` 0-959 plus every schema field from OpenBarTimeOffset on) of a
 * security-day's ticks, as loaded by `loadTicks`.
 */
export function expectedMinuteBars(ticks: pl.DataFrame, aggregation: Aggregation): pl.DataFrame {
  const [barIndex, inDayRows, countedCancels, cancelSize, isQuote, quoteCount] = once(`bars ${aggregation}`, () => [
    pl.col("bar").cast(pl.Int64),
    pl.col("bar").gtEq(0).and(pl.col("bar").lt(BARS_PER_DAY)),
    aggregation === "core" ? pl.col("isCancel") : pl.col("isCancel").and(pl.col("isTrf").not()),
    pl.col("Quantity").sum().alias("CancelSize"),
    pl.col("isQuote"),
    pl.col("seq").count().alias("NBBOQuoteCount"),
  ]);
  const bars = pl.DataFrame({ bar: Array.from({ length: BARS_PER_DAY }, (_, m) => m) }).select(barIndex);
  const inDay = ticks.filter(inDayRows);
  const nbbo = nbboByBar(inDay, bars);
  const cancels = inDay.filter(countedCancels).groupBy("bar").agg(cancelSize);
  const quoteCounts = inDay.filter(isQuote).groupBy("bar").agg(quoteCount);
  const parts = [
    sideExtremes(inDay, nbbo, "Bid"),
    sideExtremes(inDay, nbbo, "Ask"),
    quoteStatistics(inDay, nbbo),
    tradeStatistics(classifiedTrades(inDay, aggregation)),
    cancels,
    quoteCounts,
  ];
  const joined = parts.reduce((acc, part) => acc.join(part, { on: "bar", how: "left" }), nbbo);
  return joined.sort("bar").withColumns(...once("bar constants", () => [
    pl.lit(0).cast(pl.Float64).alias("OpenBarTimeOffset"),
    pl.lit(59.999999999).alias("CloseBarTimeOffset"),
    ...ZERO_WHEN_EMPTY.map((c) => pl.col(c).fillNull(0).cast(pl.Int64)),
  ]));
}
