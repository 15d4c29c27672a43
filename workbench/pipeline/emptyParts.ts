/**
 * What an empty part of an answer means, said as frame warnings: a ticker (or ticker and day)
 * of a universe with no rows, and tickers a Ticker filter lists that the result lacks.
 */
import type pl from "nodejs-polars";
import type { DataEndpoint } from "../query/endpoints.ts";
import { conditions, type Query } from "../query/query.ts";
import type { DateRange } from "../query/dates.ts";

/** " from A to B" for a range, "" without one. */
export const rangeText = (r: DateRange) => (r.start || r.end ? ` from ${r.start ?? "the first date"} to ${r.end ?? "the last date"}` : "");

/** The tickers a query's Ticker filter lists (eq or in), or [] when it names none. */
function listedTickers(endpoint: DataEndpoint, query: Query): string[] {
  if (!endpoint.tickerColumn) return [];
  return conditions(query.filters).filter((c) => c.column === endpoint.tickerColumn && (c.op === "eq" || c.op === "in")).flatMap((c) =>
    c.values.map(String)
  );
}

/**
 * Warnings for the units that came back empty and the listed tickers absent from `frame`
 * (none when `maxRows` cut the answer short: absence then means nothing).
 *
 * @example
 * ```ts
 * emptyPartWarnings(endpoint, [["AAPL"], ["XYZ"]], [aapl, xyz], query, { start: "2023-11-20", end: "2023-11-21" }, frame, Infinity);
 * // ["XYZ has no rows in eq-taq-1min from 2023-11-20 to 2023-11-21"]
 * ```
 */
export function emptyPartWarnings(
  endpoint: DataEndpoint,
  units: string[][],
  frames: pl.DataFrame[],
  query: Query,
  range: DateRange,
  frame: pl.DataFrame,
  maxRows: number,
): string[] {
  if (maxRows === 0 || frame.height >= maxRows) return [];
  const where = rangeText(range) || (query.filters ? " for these filters" : "");
  const warnings = units.flatMap((
    u,
    i,
  ) => (frames[i].height === 0 && u.length > 0 ? [`${u.join(" ")} has no rows in ${endpoint.dataset}${where}`] : []));
  const listed = listedTickers(endpoint, query);
  if (listed.length > 0 && frame.columns.includes(endpoint.tickerColumn!)) {
    const present = new Set(frame.getColumn(endpoint.tickerColumn!).unique().toArray().map(String));
    const absent = listed.filter((t) => !present.has(t));
    if (absent.length > 0) {
      warnings.push(
        `${absent.join(", ")} ${absent.length === 1 ? "is" : "are"} absent from the result of ${endpoint.dataset}${where}: no rows for ${
          absent.length === 1 ? "it" : "them"
        }`,
      );
    }
  }
  return warnings;
}

/**
 * Warnings for absent tickers nothing could judge: without the lookup files and without a
 * dataset that lists tickers at any date, an absent ticker may be misspelt or merely quiet.
 *
 * @example
 * ```ts
 * unjudgedWarnings("eq-taq", ["APPL"]);
 * // ["APPL has no rows in eq-taq, and whether the service knows APPL cannot be judged: ..."]
 * ```
 */
export function unjudgedWarnings(dataset: string, tickers: readonly string[]): string[] {
  return tickers.map((t) =>
    `${t} has no rows in ${dataset}, and whether the service knows ${t} cannot be judged: this account reads neither eq-lookup-files nor a dataset that lists tickers at any date (check the spelling)`
  );
}
