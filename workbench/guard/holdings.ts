/**
 * What a dataset holds, beside what an identity may read of it: its first and last date (from
 * `/meta/datasets/{id}/status`, free) and, for equity datasets where the identity may read
 * `eq-lookup-files`, the tickers the service knows. `missingData` says why a read that is
 * entitled would still return no row, with the same checks a data call runs before sending
 * (dates against availability and the calendar, tickers against the lookup files).
 */
import type { DatasetStatus } from "../../contract/mod.ts";
import { QueryError } from "../errors/base.ts";
import { didYouMean } from "../errors/nearest.ts";
import { dataEndpoint, DATA_ENDPOINTS } from "../query/endpoints.ts";
import { EQUITY_TICKER_DATASETS } from "../service/facts.ts";
import { checkDates } from "./dateChecks.ts";
import type { TickerBook } from "./tickers.ts";

/** What one dataset holds, as the service says. */
export interface Holding {
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** The first date with data (null when the dataset is empty for this identity). */
  first: string | null;
  /** The last date with data (null when the dataset is empty for this identity). */
  last: string | null;
  /** Distinct tickers (or option roots) the service counts, when it says. */
  tickerCount?: number;
  /** The tickers the service knows (the lookup files), for equity datasets where the identity may read them. */
  tickers?: readonly string[];
  /** Why the status could not be read (then nothing is known of what the dataset holds). */
  unread?: string;
}

/**
 * The holding of a dataset from its status and, for an equity dataset, the lookup files' book.
 *
 * @example
 * ```ts
 * holdingOf(await facts.availability("eq-taq-1min"), await tickerBook(facts));
 * // { dataset: "eq-taq-1min", first: "2023-11-01", last: "2024-01-31", tickerCount: 14, tickers: ["AAPL", ...] }
 * ```
 */
export function holdingOf(status: DatasetStatus, book: TickerBook | undefined): Holding {
  const holding: Holding = { dataset: status.dataset_text_id, first: status.first_available_date, last: status.last_available_date };
  if (typeof status.ticker_count === "number") holding.tickerCount = status.ticker_count;
  if (book && EQUITY_TICKER_DATASETS.includes(status.dataset_text_id)) holding.tickers = [...book.tickers].sort();
  return holding;
}

/** "2023-11-01 to 2024-01-31", or "no date" for an empty dataset. */
export function heldDates(holding: Holding): string {
  if (holding.unread !== undefined) return `not known (${holding.unread})`;
  return holding.first && holding.last ? `${holding.first} to ${holding.last}` : "no date (it is empty)";
}

/**
 * Why a read of `ticker` on `date` would return no row though it may be entitled: the date
 * outside the data or not a trading day, the ticker unknown to the service, or not yet or no
 * longer trading under that name on the date. Empty when the data should hold it (or nothing
 * is known to say otherwise).
 *
 * @example
 * ```ts
 * missingData(holding, book, { ticker: "TSLA", date: "2020-01-02" });
 * // ["2020-01-02 is outside the data of eq-taq-1min, which runs 2023-11-01 to 2024-01-31", "TSLA is not a ticker the service knows ..."]
 * ```
 */
export function missingData(holding: Holding, book: TickerBook | undefined, ask: { ticker?: string; date?: string }): string[] {
  const reasons: string[] = [];
  const { dataset } = holding;
  const endpoint = Object.hasOwn(DATA_ENDPOINTS, dataset) ? dataEndpoint(dataset) : undefined;
  if (holding.unread !== undefined) return reasons;
  if (!holding.first || !holding.last) reasons.push(`${dataset} holds no row for this account: it is empty`);
  else if (ask.date !== undefined && endpoint?.dateColumn) {
    try {
      checkDates(dataset, endpoint.dateColumn, { exact: [ask.date] }, { first_available_date: holding.first, last_available_date: holding.last });
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      reasons.push(error.message.replace(`${dataset}.${endpoint.dateColumn} `, "").replace(`${dataset}.${endpoint.dateColumn}: `, ""));
    }
  }
  if (ask.ticker !== undefined && book && holding.tickers) {
    if (!book.has(ask.ticker)) {
      reasons.push(`${ask.ticker} is not a ticker the service knows${didYouMean(ask.ticker, holding.tickers)}; ${dataset} holds ${holding.tickers.length} tickers: ${holding.tickers.join(", ")}`);
    } else if (ask.date !== undefined) {
      const why = book.endedBefore(ask.ticker, ask.date) ?? book.startedAfter(ask.ticker, ask.date);
      if (why) reasons.push(`on ${ask.date}, ${why}`);
    }
  }
  return reasons;
}
