/**
 * The stored 1-minute bars must be exactly what the field guide's rules give for the stored
 * ticks. The expected bars are recomputed here with Polars (support/expectedMinuteBars.ts),
 * never with the generator's own minuteBars(), so the two derivations check each other.
 */
import pl from "nodejs-polars";
import { describe, expect, inject, it } from "vitest";
import { EQ_TAQ_1MIN_COLUMNS } from "../../../sandbox/market/columns/equities.ts";
import { frameMismatches } from "./support/compareFrames.ts";
import { readManifest } from "./support/market.ts";
import { type Aggregation, DERIVED_COLUMNS, expectedMinuteBars } from "./support/expectedMinuteBars.ts";
import {
  BARS_PER_DAY,
  dailyBarPath,
  FIRST_BAR_MINUTE,
  loadTicks,
  minuteBarPath,
  NS_PER_MINUTE,
  nsOfDay,
  type TickerDay,
  tickersTraded,
} from "./support/marketFiles.ts";

const dir = inject("tinyMarketDir");
const manifest = readManifest(dir);
const AGGREGATIONS: readonly Aggregation[] = ["core", "no_finra_trf"];

/** Ticker-days chosen for what they exercise; the first test checks the manifest agrees. */
const SAMPLES: readonly (TickerDay & { why: string })[] = [
  { ticker: "AAPL", date: "2023-11-24", why: "early close at 13:00" },
  { ticker: "SPY", date: "2023-11-21", why: "the busiest book" },
  { ticker: "JPM.PRC", date: "2023-11-21", why: "a thin preferred with many empty bars" },
  { ticker: "SIRI", date: "2023-11-21", why: "a low-priced stock with a deep book" },
  { ticker: "ODFL", date: "2023-11-21", why: "the ex-date of a 3-for-2 split" },
  { ticker: "XYZ", date: "2023-11-27", why: "the first day under a new ticker" },
];
/** Identity columns, checked apart from the recomputed fields. */
const IDENTITY = ["TradeDate", "BarDateTime", "Ticker", "ASID"];
const FIELDS = EQ_TAQ_1MIN_COLUMNS.map((c) => c.name).filter((c) => !IDENTITY.includes(c));

/**
 * Time offsets as whole nanoseconds from bar start. Polars divides by a scalar through its
 * reciprocal, so its seconds can sit one ulp away from `ns / 1e9`; the nanosecond is what
 * the field means, and it is exact.
 */
const OFFSETS_IN_NS = FIELDS.filter((c) => c.endsWith("TimeOffset")).map((c) => pl.col(c).mul(1e9).round(0).cast(pl.Int64));
const offsetsInNs = (df: pl.DataFrame) => df.withColumns(...OFFSETS_IN_NS);

const ticksCache = new Map<string, pl.DataFrame>();
const ticksOf = (day: TickerDay) => {
  const key = `${day.ticker}@${day.date}`;
  if (!ticksCache.has(key)) ticksCache.set(key, loadTicks(dir, day));
  return ticksCache.get(key)!;
};

const BAR_TIMES = [
  nsOfDay("BarDateTime").minus(FIRST_BAR_MINUTE * NS_PER_MINUTE).alias("barNs"),
  pl.col("BarDateTime").cast(pl.Int64).alias("epochNs"),
];
const BAR_INDEX = pl.col("barNs").div(NS_PER_MINUTE).floor().cast(pl.Int64).alias("bar");
const barsCache = new Map<string, pl.DataFrame>();

/** A day's stored bar file, with each bar's index counted from 04:00 New York time; read once. */
function storedBars(aggregation: Aggregation, date: string): pl.DataFrame {
  const key = `${aggregation}@${date}`;
  if (!barsCache.has(key)) {
    barsCache.set(key, pl.readParquet(minuteBarPath(dir, aggregation, date)).withColumns(...BAR_TIMES).withColumns(BAR_INDEX));
  }
  return barsCache.get(key)!;
}

const barTime = (bar: unknown) => {
  const minute = FIRST_BAR_MINUTE + Number(bar);
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
};
const sortedStrings = (s: pl.Series) => [...(s.unique().toArray() as string[])].sort();

describe("1-minute bar files", () => {
  it("hold 960 bars per ticker, from 04:00 to 19:59 New York time, strictly one minute apart", () => {
    const shape = [
      pl.len().alias("bars"),
      pl.col("bar").first().alias("first"),
      pl.col("bar").last().alias("last"),
      pl.col("barNs").modulo(NS_PER_MINUTE).max().alias("offMinute"),
      pl.col("epochNs").diff(1, "ignore").min().alias("minStep"),
      pl.col("epochNs").diff(1, "ignore").max().alias("maxStep"),
    ];
    const misshapen = pl.col("bars").neq(BARS_PER_DAY).or(pl.col("first").neq(0)).or(pl.col("last").neq(BARS_PER_DAY - 1))
      .or(pl.col("offMinute").neq(0)).or(pl.col("minStep").neq(NS_PER_MINUTE)).or(pl.col("maxStep").neq(NS_PER_MINUTE));
    for (const { date } of manifest.tradingDays) {
      for (const aggregation of AGGREGATIONS) {
        const perTicker = storedBars(aggregation, date).sort(["Ticker", "epochNs"]).groupBy("Ticker").agg(...shape);
        const bad = perTicker.filter(misshapen);
        expect(bad.toRecords(), `${aggregation} ${date}`).toEqual([]);
      }
    }
  });

  it("list exactly the tickers of the day's tick files and daily bars", () => {
    for (const { date } of manifest.tradingDays) {
      const expected = tickersTraded(dir, date);
      expect(sortedStrings(pl.readParquet(dailyBarPath(dir, date)).getColumn("Ticker")), date).toEqual(expected);
      for (const aggregation of AGGREGATIONS) {
        expect(sortedStrings(storedBars(aggregation, date).getColumn("Ticker")), `${aggregation} ${date}`).toEqual(expected);
      }
    }
  });

  it("add up to the daily bar's exchange and FINRA volumes for every ticker-day", () => {
    for (const { date } of manifest.tradingDays) {
      const daily = pl.readParquet(dailyBarPath(dir, date)).select("Ticker", "DailyVolume", "DailyFinraVolume");
      const sums = AGGREGATIONS.map((a) =>
        storedBars(a, date).groupBy("Ticker").agg(
          pl.col("Volume").sum().alias(`Volume_${a}`),
          pl.col("FinraVolume").sum().alias(`FinraVolume_${a}`),
        )
      );
      const joined = sums.reduce((acc, s) => acc.join(s, { on: "Ticker", how: "full", coalesce: true }), daily);
      const bad = joined.filter(
        pl.col("Volume_core").neq(pl.col("DailyVolume"))
          .or(pl.col("Volume_no_finra_trf").neq(pl.col("DailyVolume")))
          .or(pl.col("FinraVolume_core").neq(pl.col("DailyFinraVolume")))
          .or(pl.col("FinraVolume_no_finra_trf").neq(0))
          .or(pl.col("DailyVolume").isNull()).or(pl.col("Volume_core").isNull()),
      );
      expect(joined.height, date).toBe(tickersTraded(dir, date).length);
      expect(bad.toRecords(), date).toEqual([]);
    }
  });
});

describe("1-minute bars recomputed from ticks", () => {
  it("sample an early close, a split ex-date and a ticker change named in the manifest", () => {
    const dayOf = (date: string) => manifest.tradingDays.find((d) => d.date === date);
    for (const s of SAMPLES) expect(tickersTraded(dir, s.date), `${s.ticker} ${s.date}`).toContain(s.ticker);
    expect(dayOf("2023-11-24")).toMatchObject({ earlyClose: true, closeMinute: 13 * 60 });
    expect(manifest.corporateActions).toContainEqual(expect.objectContaining({ kind: "split", exDate: "2023-11-21" }));
    expect(manifest.corporateActions).toContainEqual(
      expect.objectContaining({ kind: "ticker-change", newTicker: "XYZ", date: "2023-11-27" }),
    );
  });

  it("find every sampled tick between 04:00 and 20:00, so each falls in one of the 960 bars", () => {
    for (const s of SAMPLES) {
      const outside = ticksOf(s).filter(pl.col("bar").lt(0).or(pl.col("bar").gtEq(BARS_PER_DAY)));
      expect(outside.height, `${s.ticker} ${s.date}`).toBe(0);
    }
  });

  for (const sample of SAMPLES) {
    for (const aggregation of AGGREGATIONS) {
      it(`match ${sample.ticker} on ${sample.date} (${sample.why}) under ${aggregation} in every field`, () => {
        const ticks = ticksOf(sample);
        const stored = storedBars(aggregation, sample.date).filter(pl.col("Ticker").eq(pl.lit(sample.ticker)));
        const asids = sortedStrings(ticks.getColumn("ASID").cast(pl.Utf8));
        expect(asids).toHaveLength(1);
        expect(sortedStrings(stored.getColumn("ASID").cast(pl.Utf8))).toEqual(asids);
        expect(sortedStrings(stored.getColumn("TradeDate").cast(pl.Utf8))).toEqual([sample.date]);

        const expected = expectedMinuteBars(ticks, aggregation);
        const mismatches = frameMismatches(offsetsInNs(expected), offsetsInNs(stored), {
          key: "bar",
          columns: FIELDS,
          tolerant: DERIVED_COLUMNS,
          // Means are rounded to 6 decimals: a mean exactly half-way between two steps rounds either
          // way with the summation order (generator in tick order, Polars in its own), one step apart.
          tolerance: 1e-6 + 1e-9,
          label: `${sample.ticker} ${sample.date} ${aggregation}`,
          describeKey: barTime,
        });
        expect(mismatches).toEqual([]);
      });
    }
  }
});
