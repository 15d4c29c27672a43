/**
 * Stylized-facts benchmark: does the generated market behave like a real one? Prints one row
 * per fact: the real figure (computed from the AAPL sample in shared/data where one day can
 * show it, else the published range), the generated figure computed from the market's files,
 * the target, and whether it is met.
 *
 *   deno run -A bench/realism.ts [--market data/demo] [--sample <csv>]
 */
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import {
  absReturnAutocorrelation,
  barTradeSizeShape,
  extendedHoursShare,
  lastTradeMinute,
  lockedMinuteShare,
  minuteKurtosis,
  minuteVolumeSmoothness,
  oneTickMinuteShare,
  openToMiddayVolatility,
  realizedVolPersistence,
  volumeVolatilityCorrelation,
} from "../sandbox/market/realism/equityFacts.ts";
import {
  dailyTails,
  dailyVolumePersistence,
  exMarketCorrelation,
  intervalCorrelation,
  relativeVolume,
  subPennyExtremes,
} from "../sandbox/market/realism/marketFacts.ts";
import { type BarDay, marketBarDays, marketDailyRows, readMarketManifest, sampleBarDays } from "../sandbox/market/realism/minuteData.ts";
import { earningsOf, reactionDay } from "../sandbox/market/ticks/events.ts";
import {
  atmMonthSeries,
  atmMonthSpread,
  expiriesAndStrikes,
  greekBoundViolations,
  impliedOverRealized,
  longDatedButterflies,
  openInterestFacts,
  readGreeks,
  spotVolCorrelation,
} from "../sandbox/market/realism/optionFacts.ts";
import { quantile, sd } from "../sandbox/market/realism/stats.ts";
import { tradeSpreads, weightedSpreads } from "../workbench/research/spreads.ts";
import pl from "nodejs-polars";
import { REPO_ROOT, SAMPLE_CSV } from "./support/paths.ts";
import process from "node:process";

// A worktree sits one folder deeper than the main checkout, so the sample may be one level further up.
const defaultSample = [SAMPLE_CSV, join(REPO_ROOT, "..", "..", "shared", "data", basename(SAMPLE_CSV))].find(existsSync) ?? SAMPLE_CSV;
const { values } = parseArgs({
  options: { market: { type: "string", default: "data/demo" }, sample: { type: "string", default: defaultSample } },
});
const dir = values.market!;
if (!existsSync(join(dir, "manifest.json"))) {
  console.error(`realism: no market at ${dir}; run 'npm run market -- --profile demo --out ${dir}' first`);
  process.exit(2);
}
const LIQUID = ["AAPL", "MSFT", "SPY"];
const STOCKS = ["AAPL", "MSFT", "JPM", "CVX", "TSM", "SQ"];
const ALL = ["AAPL", "MSFT", "JPM", "SPY", "QQQ", "TSM", "JPM.PRC", "OXY.WS", "ODFL", "SIRI", "CVX", "SQ"];
const manifest = readMarketManifest(dir);
const bars = marketBarDays(dir, ALL);
const daily = marketDailyRows(dir);
const sample = sampleBarDays(values.sample!);
const greeks = readGreeks(dir);
const of = (t: string) => bars.filter((d) => d.ticker === t);

const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : "n/a");
const range = (xs: number[], fmt = f) => `${fmt(Math.min(...xs))} to ${fmt(Math.max(...xs))}`;
const per = (tickers: readonly string[], fact: (days: BarDay[]) => number) => tickers.map((t) => fact(of(t)));
const inside = (xs: number[], lo: number, hi: number) => xs.every((x) => x >= lo && x <= hi);

interface Row {
  fact: string;
  real: string;
  generated: string;
  target: string;
  met: boolean;
}
const rows: Row[] = [];
const row = (fact: string, real: string, generated: string, target: string, met: boolean) =>
  rows.push({ fact, real, generated, target, met });

// Minute-scale tails and clustering.
const kurt = per(LIQUID, minuteKurtosis);
row(
  "excess kurtosis, 1-min returns (AAPL MSFT SPY)",
  `sample ${f(minuteKurtosis(sample), 1)} (usually 10+)`,
  range(kurt, (x) => f(x, 1)),
  "3-40",
  inside(kurt, 3, 40),
);
const acf = per(LIQUID, (d) => absReturnAutocorrelation(d));
const acfDs = per(LIQUID, (d) => absReturnAutocorrelation(d, { deseason: true, fromMinute: 600 }));
row(
  "autocorr of abs(1-min return), lag 1",
  `sample ${f(absReturnAutocorrelation(sample))} (${f(absReturnAutocorrelation(sample, { fromMinute: 600 }))} after 10:00)`,
  range(acf),
  "0.15-0.5",
  inside(acf, 0.15, 0.5),
);
row("  same, time of day removed, after 10:00", "0.1-0.3 (published)", range(acfDs), ">= 0.1", acfDs.every((x) => x >= 0.1));
const rv = LIQUID.map((t) => realizedVolPersistence(of(t)));
row("daily realized vol: lag-1 autocorr", "0.6-0.7 (published)", range(rv.map((r) => r.lag1)), ">= 0.3", rv.every((r) => r.lag1 >= 0.3));
row(
  "daily realized vol: sd of log RV",
  "0.3-0.5 (published)",
  range(rv.map((r) => r.sdLog)),
  "0.2-0.6",
  inside(rv.map((r) => r.sdLog), 0.2, 0.6),
);
const tails = dailyTails(daily, STOCKS);
row("daily returns: pooled excess kurtosis (stocks)", "3-10 (published)", f(tails.kurtosis), "3-10", inside([tails.kurtosis], 3, 10));
row("daily returns: largest move", "earnings days beyond 4 sd", `${f(tails.largestSd, 1)} sd`, ">= 4 sd", tails.largestSd >= 4);
const open = per(LIQUID, openToMiddayVolatility);
row(
  "volatility 09:30-09:34 / 12:00-13:59",
  `sample ${f(openToMiddayVolatility(sample), 1)}x (~8.8x published)`,
  range(open, (x) => f(x, 1)),
  "5-10x",
  inside(open, 5, 10),
);

// Activity follows risk; calendar.
const vv = per(LIQUID, volumeVolatilityCorrelation);
row(
  "corr(volume, abs(return)) per minute",
  `sample ${f(volumeVolatilityCorrelation(sample))} (0.3-0.6)`,
  range(vv),
  ">= 0.25",
  vv.every((x) => x >= 0.25),
);
const smooth = [...LIQUID, "JPM", "CVX"].map((t) => minuteVolumeSmoothness(of(t)));
const sampleSmooth = minuteVolumeSmoothness(sample);
row(
  "minute volume 10:00-15:00: median / mean (AAPL MSFT SPY JPM CVX)",
  `sample ${f(sampleSmooth.medianOverMean)}`,
  range(smooth.map((s) => s.medianOverMean)),
  ">= 0.5",
  smooth.every((s) => s.medianOverMean >= 0.5),
);
row(
  "  minutes with no volume, 10:00-15:00",
  `sample ${pct(sampleSmooth.zeroShare)}`,
  range(smooth.map((s) => s.zeroShare), pct),
  "<= 1%",
  smooth.every((s) => s.zeroShare <= 0.01),
);
const dv = LIQUID.map((t) => dailyVolumePersistence(daily, t));
row("daily log volume: lag-1 autocorr", "0.6-0.8 (published)", range(dv), ">= 0.4", dv.every((x) => x >= 0.4));
const early = manifest.tradingDays.filter((d) => d.earlyClose).map((d) => d.date);
const holiday = manifest.tradingDays.map((d) => d.date).filter((d) => d.slice(5) >= "12-26" && d.slice(5) <= "12-29");
const excluded = [...early, ...holiday];
if (early.length) {
  const ratio = relativeVolume(daily, LIQUID, early, excluded);
  const lastMinute = Math.max(...bars.filter((d) => early.includes(d.date)).map(lastTradeMinute));
  const hhmm = `${String(Math.floor(lastMinute / 60)).padStart(2, "0")}:${String(lastMinute % 60).padStart(2, "0")}`;
  row(`early close ${early.join(", ")}: volume vs normal day`, "~0.4-0.6x", `${f(ratio)}x`, "0.3-0.7x", ratio >= 0.3 && ratio <= 0.7);
  row("  trading ends", "17:00", hhmm, "<= 17:00", lastMinute <= 1020);
}
if (holiday.length) {
  const ratio = relativeVolume(daily, LIQUID, holiday, excluded);
  row("holiday week Dec 26-29: volume vs normal", "quiet (~0.6-0.8x)", `${f(ratio)}x`, "<= 0.85x", ratio <= 0.85);
}

// Cross-section.
const aq = exMarketCorrelation(bars, "AAPL", "QQQ"), energy = exMarketCorrelation(bars, "CVX", "OXY.WS");
row("AAPL-QQQ corr beyond SPY (5 min)", "0.4-0.6 (published)", f(aq), ">= 0.3", aq >= 0.3);
row("CVX-OXY.WS corr beyond SPY (5 min)", "CVX-OXY ~0.7; warrant lower", f(energy), ">= 0.3", energy >= 0.3);
const epps = [1, 5, 30].map((m) => intervalCorrelation(bars, "AAPL", "MSFT", m));
row(
  "AAPL-MSFT corr at 1 / 5 / 30 min (Epps)",
  "rises with the interval",
  epps.map((x) => f(x)).join(" / "),
  "1-min < 0.85 x 30-min",
  epps[0] < 0.85 * epps[2],
);

// Quotes and trades.
const oneTick = per(["AAPL", "SPY"], oneTickMinuteShare);
row(
  "AAPL, SPY NBBO at one tick, regular hours",
  `>90-99% (sample, 2020 at $310: ${pct(oneTickMinuteShare(sample))})`,
  oneTick.map(pct).join(", "),
  ">= 90%",
  oneTick.every((x) => x >= 0.9),
);
const locked = per(["AAPL", "SPY"], lockedMinuteShare);
row(
  "regular-hours minutes with MinSpread <= 0",
  `sample ${pct(lockedMinuteShare(sample))} of 390`,
  locked.map(pct).join(", "),
  "<= 3%",
  locked.every((x) => x <= 0.03),
);
const sizes = barTradeSizeShape(of("AAPL")), sampleSizes = barTradeSizeShape(sample);
const sizeText = (s: typeof sizes) => `${pct(s.oddLot)} odd, ${pct(s.exactly100)} =100, median ${f(s.median, 0)}`;
row(
  "AAPL bar trade sizes (first/last/high/low)",
  `sample ${sizeText(sampleSizes)}`,
  sizeText(sizes),
  "45-80% odd, 10-30% =100, median 20-80",
  sizes.oddLot >= 0.45 && sizes.oddLot <= 0.8 && sizes.exactly100 >= 0.1 && sizes.exactly100 <= 0.3 && sizes.median >= 20 &&
    sizes.median <= 80,
);
// Tick level: Lee-Ready effective and realized spread and price impact (workbench/research, the
// recipe's own measure), dollar-volume weighted over every day; TRF prints inside the NBBO. One
// day's impact is noise-dominated (five minutes of midpoint moves against a sub-bp spread), so
// the share of the effective spread is judged with its standard error across days.
const tickDays = manifest.tradingDays.map((d) => d.date);
const tickFacts = (ticker: string) => {
  const perDay = tickDays.map((d) =>
    tradeSpreads(pl.readParquet(join(dir, "eq-taq", `TradeDate=${d}`, `Ticker=${ticker}.parquet`))).filter(pl.col("Excluded").isNull())
  );
  const value = (frame: pl.DataFrame, c: string) => weightedSpreads(frame).getColumn(c).get(0) as number;
  const pooled = pl.concat(perDay);
  const trf = pooled.filter(pl.col("Exchange").eq(pl.lit("D")));
  const effective = value(pooled, "EffectiveBps"), impacts = perDay.map((x) => value(x, "PriceImpactBps"));
  return {
    effective,
    realized: value(pooled, "RealizedBps"),
    impact: value(pooled, "PriceImpactBps"),
    shareSe: sd(impacts) / Math.sqrt(impacts.length) / effective,
    trfInside: trf.filter(pl.col("Price").gt(pl.col("Bid")).and(pl.col("Price").lt(pl.col("Ask")))).height / trf.height,
  };
};
const ticks = Object.fromEntries(LIQUID.map((t) => [t, tickFacts(t)]));
const impactShare = LIQUID.map((t) => ticks[t].impact / ticks[t].effective);
row(
  `Lee-Ready from ticks (${LIQUID.join(" ")}, ${tickDays.length} days): effective / realized at +5 min / impact, bps`,
  "realized well below effective (published)",
  LIQUID.map((t) => `${f(ticks[t].effective)} / ${f(ticks[t].realized)} / ${f(ticks[t].impact)}`).join("; "),
  "realized < effective",
  LIQUID.every((t) => ticks[t].realized < ticks[t].effective),
);
row(
  "  price impact / effective spread (± 1 s.e. across days)",
  "30-70% for liquid names (published)",
  LIQUID.map((t, i) => `${pct(impactShare[i])} ± ${pct(ticks[t].shareSe)}`).join(", "),
  "30-70% within 2 s.e.",
  LIQUID.every((t, i) => impactShare[i] + 2 * ticks[t].shareSe >= 0.3 && impactShare[i] - 2 * ticks[t].shareSe <= 0.7),
);
const trfInside = LIQUID.map((t) => ticks[t].trfInside);
row(
  "TRF prints strictly inside the NBBO (same names, days)",
  "often: midpoint, sub-penny retail improvement",
  trfInside.map(pct).join(", "),
  "30-60%",
  inside(trfInside, 0.3, 0.6),
);
const sub = subPennyExtremes(daily, LIQUID);
row("sub-penny daily highs/lows (AAPL MSFT SPY)", "rare", `${sub.subPenny} of ${sub.bars}`, "<= 10%", sub.subPenny <= 0.1 * sub.bars);
const ext = ALL.map((t) => extendedHoursShare(of(t)));
row(
  "extended-hours share of volume, by name",
  `varies (sample AAPL ${pct(extendedHoursShare(sample))})`,
  range(ext, pct),
  "max >= 3 x min",
  Math.max(...ext) >= 3 * Math.min(...ext),
);

// Options.
const optionRoots = ["SPXW", "SPY", "QQQ", "AAPL", "MSFT", "JPM", "CVX", "TSM", "SQ"];
const sv = Object.fromEntries(optionRoots.map((r) => [r, spotVolCorrelation(greeks, r)]));
const stocks = optionRoots.filter((r) => !["SPXW", "SPY", "QQQ"].includes(r)).map((r) => sv[r]);
row(
  "spot-vol corr (d ATM IV vs return)",
  "SPX ~-0.8, strongest",
  `SPXW ${f(sv.SPXW)}, SPY ${f(sv.SPY)}; stocks ${range(stocks)}`,
  "SPXW <= -0.6, stronger than every stock",
  sv.SPXW <= -0.6 && stocks.every((x) => x > sv.SPXW),
);
// Earnings: the ATM 1-month vol lifted before the report falls on the reaction day (the crush).
const crush = manifest.securities.flatMap((sec) => earningsOf(sec.asid).map((e) => ({ root: sec.ticker, day: reactionDay(e) })))
  .map(({ root, day }) => {
    const series = atmMonthSeries(greeks, root), k = series.findIndex((x) => x.date === day);
    return k > 0 ? series[k].iv - series[k - 1].iv : NaN;
  }).filter(Number.isFinite);
row(
  "ATM 1-month IV change on earnings reaction days",
  "falls (vol crush)",
  crush.length ? `${crush.map((x) => f(100 * x, 1)).join(", ")} pts` : "no report in range",
  "all < 0",
  crush.length > 0 && crush.every((x) => x < 0),
);
const ivrv = impliedOverRealized(greeks, "SPXW");
row("implied / realized vol, index (SPXW)", "1.3-1.5", f(ivrv), "1.2-1.6", ivrv >= 1.2 && ivrv <= 1.6);
const flies = longDatedButterflies(greeks, ["SPY", "SPXW", "QQQ", "AAPL", "MSFT"]);
row(
  "long-dated (>120 d) butterflies, vol pts",
  "convex (> 0)",
  `median ${f(quantile(flies, 0.5))}, 5% ${f(quantile(flies, 0.05))}`,
  "5% quantile >= 0",
  quantile(flies, 0.05) >= 0,
);
const spreads = ["SPY", "QQQ", "AAPL"].map((r) => atmMonthSpread(greeks, r));
row(
  "ATM 1-month option spread SPY / QQQ / AAPL",
  "$0.01-0.02 / $0.01-0.02 / ~$0.05",
  spreads.map((x) => `$${f(x)}`).join(" / "),
  "<= 0.03 / <= 0.03 / <= 0.10",
  spreads[0] <= 0.03 && spreads[1] <= 0.03 && spreads[2] <= 0.1,
);
const es = ["SPY", "SPXW"].map((r) => expiriesAndStrikes(greeks, r));
row(
  "SPY / SPXW expiries within a week; strike step near the money",
  "Mon-Fri; $1 / $5",
  es.map((e) => `${e.weekdays}; $${e.strikeStep}`).join(" / "),
  "Mon-Fri; $1 / $5",
  es.every((e) => e.weekdays === "Mon,Tue,Wed,Thu,Fri") && es[0].strikeStep <= 1 && es[1].strikeStep <= 5,
);
const oi = openInterestFacts(dir, ["SPY", "SPXW", "AAPL", "MSFT"]);
row(
  "put/call open interest SPY, SPXW / AAPL, MSFT",
  "1.5-2 / 0.6-0.7",
  ["SPY", "SPXW", "AAPL", "MSFT"].map((r) => f(oi.putCall[r])).join(", "),
  "1.3-2.2 / 0.5-0.85",
  inside([oi.putCall.SPY, oi.putCall.SPXW], 1.3, 2.2) && inside([oi.putCall.AAPL, oi.putCall.MSFT], 0.5, 0.85),
);
row("open interest unchanged day to day", "many contracts", pct(oi.unchangedShare), ">= 30%", oi.unchangedShare >= 0.3);
row(
  "OI into expiry: T-5/T-10, last/T-5",
  "flat, then falling",
  `${f(oi.farOut)}, ${f(oi.lastDays)}`,
  ">= 0.95, < 0.9",
  oi.farOut >= 0.95 && oi.lastDays < 0.9,
);
const gb = greekBoundViolations(greeks);
row(
  "Greek bound violations (abs(D)>1, G<0, V<0, Am. Th>0)",
  "none",
  `${gb.delta}, ${gb.gamma}, ${gb.vega}, ${gb.americanTheta} of ${gb.rows}`,
  "0, 0, 0, 0",
  gb.delta + gb.gamma + gb.vega + gb.americanTheta === 0,
);

const cols: (keyof Row)[] = ["fact", "real", "generated", "target", "met"];
console.log(
  `realism: ${dir} (${manifest.profile}, seed ${manifest.seed}, ${manifest.tradingDays.length} days) vs AAPL 2020-01-28 sample and published ranges`,
);
console.log(`| ${cols.join(" | ")} |`);
console.log(`|${cols.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${cols.map((c) => (c === "met" ? (r.met ? "yes" : "**no**") : String(r[c]))).join(" | ")} |`);
console.log(`${rows.filter((r) => r.met).length} of ${rows.length} targets met`);
