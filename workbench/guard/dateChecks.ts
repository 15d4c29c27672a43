/**
 * Date checks of a data call against the calendar and the dataset's availability, before
 * sending: a reversed range, a range wholly outside the dates the dataset holds (from
 * `/meta/datasets/{id}/status`), and a single date (or a range) with no trading day. Each
 * raises a QueryError naming the value and what is available.
 */
import { isWireDate, wireDateTimeToEpochNs } from "../../contract/mod.ts";
import { CALENDAR_COVERAGE, holidayName, isTradingDay, tradingDays } from "../../calendar/calendar.ts";
import { addDays } from "../../calendar/nyTime.ts";
import { QueryError } from "../errors/base.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import type { WireCondition } from "../query/prepare.ts";

/** One filter condition with its values as sent. */
export type SentCondition = WireCondition;

/** The dates a call asks for on its trade-date column: a list of exact dates, or bounds. */
export interface RequestedDates {
  /** Exact dates (from `eq`, `in` or a path value), when the call names them. */
  exact?: string[];
  /** Inclusive bounds, when the call gives them. */
  from?: string;
  /** See `from`. */
  to?: string;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Why a date is not a trading day: "a Saturday", "Thanksgiving Day". */
function whyClosed(date: string): string {
  const holiday = holidayName(date);
  if (holiday) return `a market holiday (${holiday})`;
  return `a ${WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]}`;
}

/** The nearest trading day before and after a date (within two weeks). */
function neighbours(date: string): string {
  const find = (step: number) => {
    for (let i = 1; i <= 14; i++) {
      const day = addDays(date, step * i);
      if (day < CALENDAR_COVERAGE.start) return undefined;
      if (isTradingDay(day)) return day;
    }
    return undefined;
  };
  const [before, after] = [find(-1), find(1)];
  return [before && `${before} before`, after && `${after} after`].filter(Boolean).join(" and ");
}

/** A comparable key of a value of a date or date-time column. */
function orderKey(type: ColumnInfo["data_type"], text: string): bigint | string | undefined {
  if (type === "date") return text;
  if (type.startsWith("datetime")) return isWireDate(text) ? wireDateTimeToEpochNs(`${text}T00:00:00`) : wireDateTimeToEpochNs(text);
  if (type === "int64" || type === "float64") return undefined; // numeric ranges: the service's business
  return undefined;
}

/**
 * Refuses a reversed range on any date or date-time column (`ge` after `le`, or an empty
 * strict range).
 *
 * @example
 * ```ts
 * checkReversed("eq-daily-ohlc", schema, [{ column: "TradeDate", op: "ge", texts: ["2023-11-24"] }, { column: "TradeDate", op: "le", texts: ["2023-11-21"] }]);
 * // QueryError: eq-daily-ohlc.TradeDate ge 2023-11-24 is after le 2023-11-21: the range is reversed ...
 * ```
 */
export function checkReversed(dataset: string, schema: readonly ColumnInfo[], conditions: readonly SentCondition[]): void {
  for (const column of schema) {
    const lower = conditions.filter((c) => c.column === column.name && (c.op === "ge" || c.op === "gt"));
    const upper = conditions.filter((c) => c.column === column.name && (c.op === "le" || c.op === "lt"));
    for (const lo of lower) {
      for (const hi of upper) {
        const [a, b] = [orderKey(column.data_type, lo.texts[0]), orderKey(column.data_type, hi.texts[0])];
        if (a === undefined || b === undefined) continue;
        const strict = lo.op === "gt" || hi.op === "lt";
        if (a > b || (strict && a === b)) {
          throw new QueryError(
            `${dataset}.${column.name} ${lo.op} ${lo.texts[0]} is ${a === b ? "equal to" : "after"} ${hi.op} ${hi.texts[0]}: the range is ${
              a === b ? "empty" : "reversed"
            }` +
              (a > b ? ` (did you mean ${lo.op} ${hi.texts[0]}, ${hi.op} ${lo.texts[0]}?)` : ""),
          );
        }
      }
    }
  }
}

/** The dates asked for on the trade-date column, from its conditions (dates as YYYY-MM-DD). */
export function requestedDates(column: string, conditions: readonly SentCondition[]): RequestedDates | undefined {
  const mine = conditions.filter((c) => c.column === column && c.texts.every(isWireDate));
  if (mine.length === 0) return undefined;
  const out: RequestedDates = {};
  for (const c of mine) {
    if (c.op === "eq" || c.op === "in") out.exact = out.exact ? out.exact.filter((d) => c.texts.includes(d)) : [...c.texts];
    if (c.op === "ge" || c.op === "gt") {
      const from = c.op === "gt" ? addDays(c.texts[0], 1) : c.texts[0];
      out.from = out.from === undefined || from > out.from ? from : out.from;
    }
    if (c.op === "le" || c.op === "lt") {
      const to = c.op === "lt" ? addDays(c.texts[0], -1) : c.texts[0];
      out.to = out.to === undefined || to < out.to ? to : out.to;
    }
  }
  return out;
}

/** Availability as `/status` reports it. */
export interface Availability {
  /** The dataset's first date, `YYYY-MM-DD`; null when it is empty. */
  first_available_date: string | null;
  /** Its last date; null when it is empty. */
  last_available_date: string | null;
}

/**
 * Refuses dates the dataset cannot hold: wholly outside its availability (the dates its status
 * shows this key, which the entitlement check has already held to the key's window), or with
 * no trading day in them.
 *
 * @example
 * ```ts
 * checkDates("eq-taq-1min", "TradeDate", { exact: ["2023-11-25"] }, status);
 * // QueryError: eq-taq-1min.TradeDate 2023-11-25 is a Saturday, not a trading day: the nearest are 2023-11-24 before and 2023-11-27 after
 * ```
 */
export function checkDates(dataset: string, column: string, asked: RequestedDates, status: Availability): void {
  const first = status.first_available_date, last = status.last_available_date;
  // The status is the identity's: its dates are the ones visible to this key (its window may hide more).
  const available = first && last ? `the dates visible to you run ${first} to ${last}` : "it holds no date visible to you (empty)";
  const where = `${dataset}.${column}`;
  if (asked.exact) {
    const inRange = asked.exact.filter((d) => (asked.from === undefined || d >= asked.from) && (asked.to === undefined || d <= asked.to));
    if (first && last && inRange.length > 0 && inRange.every((d) => d < first || d > last)) {
      throw new QueryError(`${where} ${inRange.join(", ")} is not in the data of ${dataset}: ${available}`);
    }
    if (inRange.length > 0 && inRange.every((d) => !isTradingDay(d))) {
      const why = inRange.map((d) => `${d} is ${whyClosed(d)}`).join("; ");
      throw new QueryError(
        `${where}: ${why}, not ${inRange.length > 1 ? "trading days" : "a trading day"}: the nearest are ${neighbours(inRange[0])}`,
      );
    }
    return;
  }
  const range = `${asked.from ?? "the start"} to ${asked.to ?? "the end"}`;
  if (first && last && ((asked.to !== undefined && asked.to < first) || (asked.from !== undefined && asked.from > last))) {
    throw new QueryError(`${where} ${range} is wholly outside the data of ${dataset}: ${available}`);
  }
  // Counted within the dataset's own dates only: a range from before the calendar's coverage
  // that overlaps the data is fine.
  const from = asked.from !== undefined && first && asked.from < first ? first : asked.from;
  const to = asked.to !== undefined && last && asked.to > last ? last : asked.to;
  if (from !== undefined && to !== undefined && from <= to && from >= CALENDAR_COVERAGE.start && tradingDays(from, to).length === 0) {
    const days = from === to ? `${from} is ${whyClosed(from)}` : `${range} holds no trading day`;
    throw new QueryError(`${where} ${days}, not a trading day: the nearest are ${neighbours(from)}`);
  }
}
