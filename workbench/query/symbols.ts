/**
 * One way to name symbols and dates on every dataset function: the symbols (a ticker, an option
 * root; one or a list) as the first argument or as `tickers:` in the options, and the trade
 * dates as `start`/`end`, or `date` for one day. This turns such a call into the path values and
 * query of the dataset's REST shape (`wb.data.get`).
 */
import { QueryError } from "../errors/base.ts";
import { describeValue } from "./checkInput.ts";
import { type DateLike, isoDate } from "./dates.ts";
import type { DataEndpoint } from "./endpoints.ts";
import type { DataQuery, PathArg } from "./plan.ts";
import type { FilterSpec } from "./query.ts";

/** One symbol or a list of them. */
export type Symbols = string | readonly string[];

/** A dataset function's options: a data call's, plus `tickers` and `date`. */
export interface SymbolQuery extends DataQuery {
  /** The symbols (tickers, option roots), when not given as the first argument. */
  tickers?: Symbols;
  /** One trade date: the same as `start` and `end` on that day. */
  date?: DateLike;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);

/**
 * How a dataset's function is called, for messages: `eqTaq1Min("AAPL", { start, end })`; `lead`
 * is what comes before the symbols (`wb.estimate`'s dataset id).
 */
export function callForm(name: string, endpoint: DataEndpoint, lead = ""): string {
  const dates = endpoint.dateColumn ? ', { start: "2023-11-20", end: "2023-11-24" }' : "";
  const example = endpoint.symbol.what.includes("option") ? '"SPY"' : '"AAPL"';
  return `${name}(${lead}${example}${dates}) or ${name}(${lead}{ tickers: [${example}, ...]${dates ? ', date: "2023-11-21"' : ""} })`;
}

/**
 * The REST shape of a dataset function's call: its path values and query.
 *
 * @example
 * ```ts
 * symbolCall("eqDailyOhlc", dataEndpoint("eq-daily-ohlc"), "ODFL", { date: "2023-11-21" });
 * // { pathArgs: [], query: { filters: { Ticker: "ODFL" }, start: "2023-11-21", end: "2023-11-21" } }
 * ```
 */
export function symbolCall(
  name: string,
  endpoint: DataEndpoint,
  first: unknown,
  second: unknown,
  lead = "",
): { pathArgs: PathArg[]; query: DataQuery } {
  const form = callForm(name, endpoint, lead);
  let symbols: unknown;
  let options: unknown;
  if (typeof first === "string" || Array.isArray(first)) [symbols, options] = [first, second ?? {}];
  else if (first === undefined || isPlainObject(first)) {
    if (second !== undefined) {
      throw new QueryError(
        `${name} takes the ${endpoint.symbol.what}s first, then the options; got options and then ${describeValue(second)}: call ${form}`,
      );
    }
    options = first ?? {};
  } else {throw new QueryError(
      `${name}'s ${lead ? "argument after the dataset" : "first argument"} is ${
        describeValue(first)
      }: give the ${endpoint.symbol.what} (one or a list) or the options, as in ${form}`,
    );}
  if (!isPlainObject(options)) throw new QueryError(`${name}'s options are ${describeValue(options)}: give an object, as in ${form}`);
  const { tickers, date, ...query } = options as SymbolQuery;
  if (symbols !== undefined && tickers !== undefined) {
    throw new QueryError(`${name} got its ${endpoint.symbol.what}s twice (first argument and tickers): give them once, as in ${form}`);
  }
  symbols ??= tickers;
  if (date !== undefined) {
    if (!endpoint.dateColumn) throw new QueryError(`${endpoint.dataset} has no trade date: date does not apply (drop it)`);
    if (query.start !== undefined || query.end !== undefined) {
      throw new QueryError(`${name} got date and start/end: give one day as date, or a range as start and end`);
    }
    const day = isoDate(date as DateLike, "date");
    query.start = day;
    query.end = day;
  }
  const list = symbols === undefined ? undefined : typeof symbols === "string" ? [symbols] : symbols;
  if (list !== undefined) {
    if (!Array.isArray(list) || list.length === 0) {
      throw new QueryError(
        `${name}'s ${endpoint.symbol.what}s are ${describeValue(symbols)}: give one as text or a non-empty list, as in ${form}`,
      );
    }
    list.forEach((s, i) => {
      if (typeof s !== "string" || s.trim() === "") {
        throw new QueryError(
          `${name}'s ${endpoint.symbol.what} ${list.length > 1 ? `[${i}] ` : ""}is ${describeValue(s)}: give it as text, as in ${form}`,
        );
      }
    });
  }
  const { column, path } = endpoint.symbol;
  if (path) {
    if (list === undefined) throw new QueryError(`${name} needs a ${endpoint.symbol.what} (one or a list): call ${form}`);
    return { pathArgs: endpoint.pathParams.map((p) => (p === "ticker" ? (symbols as PathArg) : null)), query };
  }
  if (list !== undefined) {
    if (query.filters?.[column] !== undefined) {
      throw new QueryError(
        `${name} got its ${endpoint.symbol.what}s twice (as symbols and as filters.${column}): give them once, as in ${form}`,
      );
    }
    query.filters = { ...query.filters, [column]: (typeof symbols === "string" ? symbols : [...list]) as FilterSpec };
  }
  return { pathArgs: [], query };
}
