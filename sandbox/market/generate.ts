/**
 * Generates a whole market for a profile and seed, day by day: ticks first, then every equity
 * dataset derived from them, then the day's option datasets from the underlyings' last NBBO
 * mids; after the last day, the reference datasets (option security master, OCC special
 * settlements, ticker lookup). Everything is written as partitioned Parquet through the
 * catalog, with a manifest.
 * The market is written to a temporary folder and renamed into place at the end, so a
 * half-written market is never mistaken for a complete one.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGGREGATIONS, type BarColumns, minuteBars } from "./bars/minuteBars.ts";
import { dailyBar, type DailyBar } from "./bars/dailyBar.ts";
import { type TradingDay, tradingDays } from "../../calendar/calendar.ts";
import { type Dataset, datasetByTextId, partitionPath } from "./catalog.ts";
import { type CorporateAction, planCorporateActions, tickerOn, tradesOn } from "./corporateActions.ts";
import { dailyBarFrame, minuteBarFrame, type SecurityDay, tickFrame } from "./dayFrames.ts";
import { type Row, rowsFrame, writeParquetFile } from "./frames.ts";
import { type CloseQuotes, OptionsMarket } from "./options/optionsMarket.ts";
import { securityMasterRows } from "./options/securityMaster.ts";
import { specialSettlementRows } from "./options/specialSettlements.ts";
import type { Profile } from "./profiles.ts";
import { lookupRows } from "./reference/lookupFiles.ts";
import { type Security, securityByTicker } from "./securities.ts";
import { generateDayTicks } from "./ticks/generateDay.ts";
import { buildPricePaths } from "./ticks/pricePath.ts";

/** Bumped whenever generated data changes for the same profile and seed. */
export const GENERATOR_VERSION = 4;

/** What a generated market holds, written to `manifest.json` beside the data. */
export interface Manifest {
  generatorVersion: number;
  profile: Profile["name"];
  eventScale: number;
  seed: number;
  start: string;
  end: string;
  tradingDays: TradingDay[];
  securities: Security[];
  corporateActions: CorporateAction[];
  /** Rows and files written per dataset text id. */
  datasets: Record<string, { files: number; rows: number }>;
}

export interface Progress {
  day: number;
  days: number;
  date: string;
  ticks: number;
  /** Seconds spent so far on the option datasets (the rest went to the equities). */
  optionSeconds: number;
}

export interface GenerateOptions {
  profile: Profile;
  seed: number;
  outDir: string;
  onProgress?: (p: Progress) => void;
}

/**
 * Generates the market into `outDir` (replacing what is there) and returns its manifest.
 *
 * @example
 * ```ts
 * const manifest = generateMarket({ profile: profileByName("tiny"), seed: 42, outDir: "data/tiny" });
 * ```
 */
export function generateMarket({ profile, seed, outDir, onProgress }: GenerateOptions): Manifest {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`Seed ${seed} is not a non-negative integer`);
  // An empty folder name would put the work folder in the current directory, then fail to rename it.
  if (outDir.trim() === "") throw new Error(`Output folder '${outDir}' is empty: name the folder to generate the market into`);
  const days = tradingDays(profile.start, profile.end);
  const securities = profile.tickers.map(securityByTicker);
  const actions = planCorporateActions(days);
  const paths = buildPricePaths(seed, days, securities, actions);
  const work = `${outDir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  const counts: Manifest["datasets"] = {};
  const record = (textId: string, rows: number) => {
    const c = (counts[textId] ??= { files: 0, rows: 0 });
    c.files++;
    c.rows += rows;
  };
  const [minute, daily, taq] = ["eq-taq-1min", "eq-daily-ohlc", "eq-taq"].map(datasetByTextId);
  const writeRows = (dataset: Dataset, partition: Record<string, string>, rows: readonly Row[]) => {
    writeParquetFile(rowsFrame(dataset.columns, rows), join(work, partitionPath(dataset, partition)));
    record(dataset.textId, rows.length);
  };
  const options = new OptionsMarket(seed, days, securities, actions);
  let optionSeconds = 0;

  for (const [index, day] of days.entries()) {
    const ids: SecurityDay[] = [];
    const barsByAggregation: BarColumns[][] = AGGREGATIONS.map(() => []);
    const dailyBars: DailyBar[] = [];
    let tickCount = 0;
    const trading = securities
      .filter((s) => tradesOn(s.asid, day.date, actions))
      .map((s) => ({ security: s, id: { date: day.date, ticker: tickerOn(s.asid, s.ticker, day.date, actions), asid: s.asid } }))
      .sort((a, b) => (a.id.ticker < b.id.ticker ? -1 : 1));
    for (const { security, id } of trading) {
      const path = paths.get(security.asid)!.get(day.date)!;
      const ticks = generateDayTicks({ seed, day, security, path, eventScale: profile.eventScale });
      tickCount += ticks.length;
      writeParquetFile(tickFrame(id, ticks), join(work, partitionPath(taq, { TradeDate: day.date, Ticker: id.ticker })));
      record(taq.textId, ticks.length);
      ids.push(id);
      AGGREGATIONS.forEach((a, k) => barsByAggregation[k].push(minuteBars(ticks, a)));
      dailyBars.push(dailyBar(ticks, day.closeMinute));
    }
    AGGREGATIONS.forEach((aggregation, k) => {
      const frame = minuteBarFrame(ids, barsByAggregation[k]);
      writeParquetFile(frame, join(work, partitionPath(minute, { aggregation_logic: aggregation, TradeDate: day.date })));
      record(`${minute.textId}:${aggregation}`, frame.height);
    });
    writeParquetFile(dailyBarFrame(ids, dailyBars), join(work, partitionPath(daily, { TradeDate: day.date })));
    record(daily.textId, ids.length);
    // The NBBO is the same in both aggregations; the options read it at their last minute.
    const closeQuotes = new Map<number, CloseQuotes>(ids.map((id, k) => [id.asid, { bid: barsByAggregation[0][k].CloseBidPrice, ask: barsByAggregation[0][k].CloseAskPrice }]));
    const optionsStarted = performance.now();
    const optionDay = options.day(day, closeQuotes);
    writeRows(datasetByTextId("opt-greeks-daily"), { TradeDate: day.date }, optionDay.greeks);
    writeRows(datasetByTextId("opt-open-interest"), { TradeDate: day.date }, optionDay.openInterest);
    optionSeconds += (performance.now() - optionsStarted) / 1000;
    onProgress?.({ day: index + 1, days: days.length, date: day.date, ticks: tickCount, optionSeconds });
  }

  const asOf = { AsOf: days.at(-1)!.date };
  writeRows(datasetByTextId("opt-sec-master"), asOf, securityMasterRows({ roots: options.roots, history: options.history, days, securities, actions }));
  writeRows(datasetByTextId("occ-eq-spec-settl"), asOf, specialSettlementRows(options.roots, options.processPrices, securities, actions));
  writeRows(datasetByTextId("eq-lookup-files"), asOf, lookupRows(securities, actions));

  const manifest: Manifest = {
    generatorVersion: GENERATOR_VERSION,
    profile: profile.name,
    eventScale: profile.eventScale,
    seed,
    start: profile.start,
    end: profile.end,
    tradingDays: days,
    securities,
    corporateActions: actions,
    datasets: counts,
  };
  writeFileSync(join(work, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  if (existsSync(outDir)) rmSync(outDir, { recursive: true, force: true });
  renameSync(work, outDir);
  return manifest;
}
