/**
 * A dataset's status as one identity sees it: first and last date, row count and ticker count
 * within its access rule (date window and ticker universe). An identity whose rule covers the
 * whole dataset gets the manifest's figures; a narrower rule gets figures counted by the
 * engine over exactly the rows a data request could return, remembered per rule. Option
 * datasets count their own symbols, the option roots (SPXW, adjusted roots such as ODFL1), not
 * the equity tickers: always counted by the engine.
 */
import pl from "nodejs-polars";
import type { Dataset } from "../../market/catalog.ts";
import type { Market } from "../context.ts";
import type { AccessRule } from "../state/accounts.ts";
import { applyAccessRule, type Constraints } from "./entitlement.ts";
import { planQuery } from "./execute.ts";
import type { DataQuery } from "./parse.ts";

export interface DatasetStatus {
  dataset_id: string;
  dataset_text_id: string;
  status: "available";
  first_available_date: string | null;
  last_available_date: string | null;
  last_updated: string;
  row_count: number;
  ticker_count: number;
  variants: Record<string, string[]>;
}

type Scoped = Pick<DatasetStatus, "first_available_date" | "last_available_date" | "row_count" | "ticker_count">;

const scopedMemo = new Map<string, Promise<Scoped>>();

function wholeDataset(market: Market, dataset: Dataset): Scoped {
  const counts = Object.entries(market.manifest.datasets).filter(([k]) => k === dataset.textId || k.startsWith(`${dataset.textId}:`));
  const rows = dataset.variant
    ? counts.find(([k]) => k.endsWith(`:${dataset.variant!.values[0]}`))?.[1].rows ?? 0
    : counts.reduce((s, [, v]) => s + v.rows, 0);
  const days = market.manifest.tradingDays;
  return {
    first_available_date: days[0]?.date ?? null,
    last_available_date: days.at(-1)?.date ?? null,
    row_count: rows,
    // A ticker change gives a security a second ticker.
    ticker_count: new Set(market.manifest.securities.map((s) => s.ticker)).size +
      market.manifest.corporateActions.filter((a) => a.kind === "ticker-change").length,
  };
}

/** The column whose distinct values `ticker_count` counts: the ticker column, or the option root of reference data. */
const symbolColumn = (dataset: Dataset) => dataset.tickerColumn ?? dataset.columns.find((c) => c.name === "OptionTicker")?.name;

/** Option datasets name option roots, not the securities' tickers: their count is read from their rows. */
const countsOwnSymbols = (dataset: Dataset) => dataset.assetClass.startsWith("us-equity-opt");

/** Whether the rule hides any of the dataset's rows. */
function narrows(market: Market, constraints: Constraints): boolean {
  const days = market.manifest.tradingDays;
  const w = constraints.window;
  const first = days[0]?.date, last = days.at(-1)?.date;
  const windowCuts = w !== undefined && first !== undefined && last !== undefined && (w.start > first || (w.end !== null && w.end < last));
  return windowCuts || constraints.universe !== undefined;
}

async function countWithin(market: Market, dataset: Dataset, constraints: Constraints): Promise<Scoped> {
  const query: DataQuery = { offset: 0, limit: 0, format: "json", sort: [], filters: [], variant: dataset.variant?.values[0] };
  const { plan } = planQuery(market.files.get(dataset.textId) ?? [], dataset, query, constraints);
  const aggregates = [pl.len().alias("rows")];
  const symbols = symbolColumn(dataset);
  if (symbols) aggregates.push(pl.col(symbols).nUnique().alias("tickers"));
  if (dataset.dateColumn) {
    aggregates.push(pl.col(dataset.dateColumn).min().dt.strftime("%Y-%m-%d").alias("first"));
    aggregates.push(pl.col(dataset.dateColumn).max().dt.strftime("%Y-%m-%d").alias("last"));
  }
  const row = (await plan.select(...aggregates).collect()).toRecords()[0] as {
    rows: number;
    tickers?: number;
    first?: string | null;
    last?: string | null;
  };
  const whole = wholeDataset(market, dataset);
  const rows = Number(row.rows);
  return {
    first_available_date: dataset.dateColumn ? (rows === 0 ? null : row.first ?? null) : whole.first_available_date,
    last_available_date: dataset.dateColumn ? (rows === 0 ? null : row.last ?? null) : whole.last_available_date,
    row_count: rows,
    ticker_count: symbols ? Number(row.tickers ?? 0) : whole.ticker_count,
  };
}

/**
 * The status record of `dataset` for an identity holding `rule`.
 *
 * @example
 * ```ts
 * const status = await datasetStatus(market, dataset, rule); // { row_count: 1200, ticker_count: 2, ... }
 * ```
 */
export async function datasetStatus(market: Market, dataset: Dataset, rule: AccessRule): Promise<DatasetStatus> {
  const constraints = applyAccessRule(dataset, rule, { offset: 0, limit: 0, format: "json", sort: [], filters: [] });
  let scoped: Scoped;
  if (!narrows(market, constraints) && !countsOwnSymbols(dataset)) scoped = wholeDataset(market, dataset);
  else {
    const key = `${market.dir}\u0000${dataset.textId}\u0000${JSON.stringify(constraints)}`;
    let pending = scopedMemo.get(key);
    if (!pending) {
      pending = countWithin(market, dataset, constraints);
      scopedMemo.set(key, pending);
      pending.catch(() => scopedMemo.delete(key));
    }
    scoped = await pending;
  }
  return {
    dataset_id: dataset.id,
    dataset_text_id: dataset.textId,
    status: "available",
    ...scoped,
    last_updated: market.updatedAt,
    variants: dataset.variant ? { [dataset.variant.param]: dataset.variant.values } : {},
  };
}
