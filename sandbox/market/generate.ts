/**
 * Generates a whole market for a profile and seed, day by day: ticks first, then every equity
 * dataset derived from them (equityDay.ts; days are independent, so they can be written on
 * worker threads, dayPool.ts), then, strictly in day order, the day's option datasets from the
 * underlyings' last NBBO mids (the option market carries state from day to day); after the last day, the reference datasets (option security master, OCC special
 * settlements, ticker lookup). Everything is written as partitioned Parquet through the
 * catalog, with a manifest.
 * The market is written to a temporary folder and renamed into place at the end, so a
 * half-written market is never mistaken for a complete one.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TradingDay, tradingDays } from "../../calendar/calendar.ts";
import { type Dataset, datasetByTextId, partitionPath } from "./catalog.ts";
import { type CorporateAction, planCorporateActions, tickerOn, tradesOn } from "./corporateActions.ts";
import { canUseWorkers, equityDaysOnWorkers } from "./dayPool.ts";
import { type EquityDayInput, type EquityDayResult, writeEquityDay } from "./equityDay.ts";
import { type Row, rowsFrame, writeParquetFile } from "./frames.ts";
import { type CloseQuotes, OptionsMarket } from "./options/optionsMarket.ts";
import { securityMasterRows } from "./options/securityMaster.ts";
import { specialSettlementRows } from "./options/specialSettlements.ts";
import { GENERATOR_VERSION, type Manifest } from "./manifest.ts";
import type { Profile } from "./profiles.ts";
import { lookupRows } from "./reference/lookupFiles.ts";
import { type Security, securityByTicker } from "./securities.ts";
import { buildPricePaths } from "./ticks/pricePath.ts";
import process from "node:process";

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

/** Options of {@link generateMarketInParallel}. */
export interface ParallelGenerateOptions extends GenerateOptions {
  /**
   * Worker threads writing equity days (default: one per core). The output is byte for byte
   * the same whatever the number; 1, or a runtime without workers (Node), writes in this thread.
   */
  workers?: number;
}

/** A market being generated: what every day needs, and the counts and option state it builds up. */
class MarketRun {
  readonly days: TradingDay[];
  readonly securities: Security[];
  readonly actions: CorporateAction[];
  readonly work: string;
  readonly counts: Manifest["datasets"] = {};
  readonly options: OptionsMarket;
  optionSeconds = 0;

  constructor(readonly profile: Profile, readonly seed: number, readonly outDir: string, readonly onProgress?: (p: Progress) => void) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`Seed ${seed} is not a non-negative integer`);
    // An empty folder name would put the work folder in the current directory, then fail to rename it.
    if (outDir.trim() === "") throw new Error(`Output folder '${outDir}' is empty: name the folder to generate the market into`);
    this.days = tradingDays(profile.start, profile.end);
    this.securities = profile.tickers.map(securityByTicker);
    this.actions = planCorporateActions(this.days);
    this.work = `${outDir}.partial-${process.pid}`;
    rmSync(this.work, { recursive: true, force: true });
    this.options = new OptionsMarket(seed, this.days, this.securities, this.actions);
  }

  /** The input of every equity day, in day order. */
  equityDays(): EquityDayInput[] {
    const { seed, days, securities, actions, work } = this;
    const paths = buildPricePaths(seed, days, securities, actions);
    return days.map((day) => ({
      seed,
      eventScale: this.profile.eventScale,
      day,
      work,
      trading: securities
        .filter((s) => tradesOn(s.asid, day.date, actions))
        .map((s) => ({
          security: s,
          id: { date: day.date, ticker: tickerOn(s.asid, s.ticker, day.date, actions), asid: s.asid },
          path: paths.get(s.asid)!.get(day.date)!,
        }))
        .sort((a, b) => (a.id.ticker < b.id.ticker ? -1 : 1)),
    }));
  }

  record(textId: string, rows: number): void {
    const c = (this.counts[textId] ??= { files: 0, rows: 0 });
    c.files++;
    c.rows += rows;
  }

  writeRows(dataset: Dataset, partition: Record<string, string>, rows: readonly Row[]): void {
    writeParquetFile(rowsFrame(dataset.columns, rows), join(this.work, partitionPath(dataset, partition)));
    this.record(dataset.textId, rows.length);
  }

  /** Counts a written equity day, then writes its option datasets: must be called in day order. */
  completeDay(index: number, equities: EquityDayResult): void {
    const day = this.days[index];
    for (const [textId, rows] of equities.files) this.record(textId, rows);
    const closeQuotes = new Map<number, CloseQuotes>(equities.closeQuotes.map((q) => [q.asid, { bid: q.bid, ask: q.ask }]));
    const optionsStarted = performance.now();
    const optionDay = this.options.day(day, closeQuotes);
    this.writeRows(datasetByTextId("opt-greeks-daily"), { TradeDate: day.date }, optionDay.greeks);
    this.writeRows(datasetByTextId("opt-open-interest"), { TradeDate: day.date }, optionDay.openInterest);
    this.optionSeconds += (performance.now() - optionsStarted) / 1000;
    this.onProgress?.({ day: index + 1, days: this.days.length, date: day.date, ticks: equities.ticks, optionSeconds: this.optionSeconds });
  }

  /** Writes the reference datasets and the manifest, and moves the market into place. */
  finish(): Manifest {
    const { days, securities, actions, options } = this;
    const asOf = { AsOf: days.at(-1)!.date };
    this.writeRows(
      datasetByTextId("opt-sec-master"),
      asOf,
      securityMasterRows({ roots: options.roots, history: options.history, days, securities, actions }),
    );
    this.writeRows(
      datasetByTextId("occ-eq-spec-settl"),
      asOf,
      specialSettlementRows(options.roots, options.processPrices, securities, actions),
    );
    this.writeRows(datasetByTextId("eq-lookup-files"), asOf, lookupRows(securities, actions));
    const manifest: Manifest = {
      generatorVersion: GENERATOR_VERSION,
      profile: this.profile.name,
      eventScale: this.profile.eventScale,
      seed: this.seed,
      start: this.profile.start,
      end: this.profile.end,
      tradingDays: days,
      securities,
      corporateActions: actions,
      datasets: this.counts,
    };
    writeFileSync(join(this.work, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
    if (existsSync(this.outDir)) rmSync(this.outDir, { recursive: true, force: true });
    renameSync(this.work, this.outDir);
    return manifest;
  }
}

/**
 * Generates the market into `outDir` (replacing what is there) and returns its manifest,
 * all in this thread; {@link generateMarketInParallel} writes the same bytes on every core.
 *
 * @example
 * ```ts
 * const manifest = generateMarket({ profile: profileByName("tiny"), seed: 42, outDir: "data/tiny" });
 * ```
 */
export function generateMarket({ profile, seed, outDir, onProgress }: GenerateOptions): Manifest {
  const run = new MarketRun(profile, seed, outDir, onProgress);
  for (const [index, input] of run.equityDays().entries()) run.completeDay(index, writeEquityDay(input));
  return run.finish();
}

/**
 * Generates the market like {@link generateMarket}, byte for byte the same, with the equity
 * days written on `workers` threads while this one writes the option datasets in day order.
 *
 * @example
 * ```ts
 * const manifest = await generateMarketInParallel({ profile: profileByName("demo"), seed: 42, outDir: "data/demo" });
 * ```
 */
export async function generateMarketInParallel(options: ParallelGenerateOptions): Promise<Manifest> {
  const workers = options.workers ?? (globalThis.navigator?.hardwareConcurrency || 1);
  if (!Number.isSafeInteger(workers) || workers < 1) {
    throw new Error(`Workers ${workers} is not a number of threads: use a whole number of 1 or more`);
  }
  if (workers === 1 || !canUseWorkers()) return generateMarket(options);
  const run = new MarketRun(options.profile, options.seed, options.outDir, options.onProgress);
  try {
    let index = 0;
    for await (const equities of equityDaysOnWorkers(run.equityDays(), workers)) run.completeDay(index++, equities);
  } catch (e) {
    rmSync(run.work, { recursive: true, force: true });
    throw e;
  }
  return run.finish();
}
