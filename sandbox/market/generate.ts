/**
 * Generates a whole market for a profile and seed: ticks first, then every equity dataset
 * derived from them, written as partitioned Parquet through the catalog, with a manifest.
 * The market is written to a temporary folder and renamed into place at the end, so a
 * half-written market is never mistaken for a complete one.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGGREGATIONS, type BarColumns, minuteBars } from "./bars/minuteBars.ts";
import { dailyBar, type DailyBar } from "./bars/dailyBar.ts";
import { type TradingDay, tradingDays } from "./calendar.ts";
import { datasetByTextId, partitionPath } from "./catalog.ts";
import { type CorporateAction, planCorporateActions, tickerOn, tradesOn } from "./corporateActions.ts";
import { dailyBarFrame, minuteBarFrame, type SecurityDay, tickFrame } from "./dayFrames.ts";
import { writeParquetFile } from "./frames.ts";
import type { Profile } from "./profiles.ts";
import { type Security, securityByTicker } from "./securities.ts";
import { generateDayTicks } from "./ticks/generateDay.ts";
import { buildPricePaths } from "./ticks/pricePath.ts";

/** Bumped whenever generated data changes for the same profile and seed. */
export const GENERATOR_VERSION = 1;

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
    onProgress?.({ day: index + 1, days: days.length, date: day.date, ticks: tickCount });
  }

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
