/**
 * What a dataset holds as this identity sees it, beside what the identity may read of it: its
 * first and last date (from `/meta/datasets/{id}/status`, free, scoped by the service to the
 * identity's window and universe: "visible to you", never the whole data), the tickers (or
 * option roots) the status counts, and the names the service knows: the lookup files' tickers
 * for equity datasets, the options security master's roots for option datasets, where the
 * identity may read them. `missingData` says why a read that is entitled would still return no
 * row, with the same checks a data call runs before sending (dates against availability and
 * the calendar, tickers against the lookup files, option roots against the security master),
 * and says nothing of the data where the identity's window hides it.
 */
import type { DatasetStatus } from "../../contract/mod.ts";
import { QueryError } from "../errors/base.ts";
import { didYouMean } from "../errors/nearest.ts";
import { DATA_ENDPOINTS, dataEndpoint } from "../query/endpoints.ts";
import { EQUITY_TICKER_DATASETS } from "../service/facts.ts";
import { checkDates } from "./dateChecks.ts";
import { OPTION_ROOT_DATASETS, type RootBook } from "./optionRoots.ts";
import type { TickerBook } from "./tickers.ts";

/** What one dataset holds, as the service says. */
export interface Holding {
  /** The dataset's id, e.g. `eq-taq-1min`. */
  dataset: string;
  /** The first date with data (null when the dataset is empty for this identity). */
  first: string | null;
  /** The last date with data (null when the dataset is empty for this identity). */
  last: string | null;
  /** Distinct tickers (option roots for option datasets) the status counts for this identity, when it says. */
  tickerCount?: number;
  /** What the dataset's symbols are: "ticker", "option root" or "adjusted option root". */
  symbol?: string;
  /** The tickers the service knows (the lookup files), for equity datasets where the identity may read them. */
  tickers?: readonly string[];
  /** The option roots the service knows (the options security master), for option datasets where the identity may read it. */
  roots?: readonly string[];
  /** Why the status could not be read (then nothing is known of what the dataset holds). */
  unread?: string;
}

/**
 * The holding of a dataset from its status and, for an equity dataset, the lookup files' book
 * (for an option dataset, the security master's roots).
 *
 * @example
 * ```ts
 * holdingOf(await facts.availability("eq-taq-1min"), await tickerBook(facts));
 * // { dataset: "eq-taq-1min", first: "2023-11-01", last: "2024-01-31", tickerCount: 14, symbol: "ticker", tickers: ["AAPL", ...] }
 * ```
 */
export function holdingOf(status: DatasetStatus, book: TickerBook | undefined, roots?: RootBook): Holding {
  const id = status.dataset_text_id;
  const holding: Holding = { dataset: id, first: status.first_available_date, last: status.last_available_date };
  if (typeof status.ticker_count === "number") holding.tickerCount = status.ticker_count;
  if (Object.hasOwn(DATA_ENDPOINTS, id)) holding.symbol = dataEndpoint(id).symbol.what;
  if (book && EQUITY_TICKER_DATASETS.includes(id)) holding.tickers = [...book.tickers].sort();
  if (roots && OPTION_ROOT_DATASETS.includes(id)) holding.roots = roots.roots;
  return holding;
}

/** The part of an access rule `missingData` reads: its date window. */
export interface Window {
  /** The rule's first date, `YYYY-MM-DD`. */
  start_date: string;
  /** Its last date; null: no end. */
  end_date: string | null;
}

/**
 * Why a read of `ticker` (an option root for option datasets) on `date` would return no row
 * though it may be entitled: the date not in the data or not a trading day, the ticker unknown
 * to the service, or not yet or no longer trading under that name on the date. A date outside
 * the identity's `window` is not judged: the window hides what the data holds there (the
 * refusal says so). Empty when the data should hold it (or nothing is known to say otherwise).
 *
 * @example
 * ```ts
 * missingData(holding, book, { ticker: "TSLA", date: "2020-01-02" }, undefined, { start_date: "2000-01-01", end_date: null });
 * // ["2020-01-02 is not in the data of eq-taq-1min: the dates visible to you run 2023-11-01 to 2024-01-31", "TSLA is not a ticker the service knows ..."]
 * ```
 */
export function missingData(
  holding: Holding,
  book: TickerBook | undefined,
  ask: { ticker?: string; date?: string },
  roots?: RootBook,
  window?: Window,
): string[] {
  const reasons: string[] = [];
  const { dataset } = holding;
  const endpoint = Object.hasOwn(DATA_ENDPOINTS, dataset) ? dataEndpoint(dataset) : undefined;
  if (holding.unread !== undefined) return reasons;
  const hidden = ask.date !== undefined && window !== undefined &&
    (ask.date < window.start_date || (window.end_date !== null && ask.date > window.end_date));
  if (!holding.first || !holding.last) reasons.push(`${dataset} holds no row visible to you: it is empty for this account`);
  else if (ask.date !== undefined && endpoint?.dateColumn && !hidden) {
    try {
      checkDates(dataset, endpoint.dateColumn, { exact: [ask.date] }, {
        first_available_date: holding.first,
        last_available_date: holding.last,
      });
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      reasons.push(error.message.replace(`${dataset}.${endpoint.dateColumn} `, "").replace(`${dataset}.${endpoint.dateColumn}: `, ""));
    }
  }
  const date = hidden ? undefined : ask.date;
  if (ask.ticker !== undefined && book && holding.tickers) {
    if (!book.has(ask.ticker)) {
      reasons.push(
        `${ask.ticker} is not a ticker the service knows${
          didYouMean(ask.ticker, holding.tickers)
        }; the lookup files know ${holding.tickers.length} tickers: ${holding.tickers.join(", ")}`,
      );
    } else if (date !== undefined) {
      const why = book.endedBefore(ask.ticker, date) ?? book.startedAfter(ask.ticker, date);
      if (why) reasons.push(`on ${date}, ${why}`);
    }
  }
  if (ask.ticker !== undefined && roots && holding.roots) {
    if (!roots.has(ask.ticker)) {
      reasons.push(
        `${ask.ticker} is not an option root the service knows${
          roots.hint(ask.ticker).text
        }; the security master knows ${holding.roots.length} roots: ${holding.roots.join(", ")}`,
      );
    } else {
      if (dataset === "opt-greeks-daily" && !roots.hasGreeks(ask.ticker)) {
        reasons.push(`opt-greeks-daily does not value ${ask.ticker}'s contracts (GreeksCoverage N in opt-sec-master)`);
      }
      const why = date === undefined ? undefined : roots.endedBefore(ask.ticker, date) ?? roots.startedAfter(ask.ticker, date);
      if (why) reasons.push(`on ${date}, ${why}`);
    }
  }
  return reasons;
}
