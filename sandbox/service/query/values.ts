/**
 * Parsing of query-string values by column type, with pydantic-style 422 issues on failure.
 * Dates are strict `YYYY-MM-DD`; date-times are ISO 8601, read as New York time when they
 * carry no offset; integers must be safe integers.
 */
import type { ColumnType } from "../../market/schema.ts";
import { nyUtcOffsetMinutes } from "../../../calendar/nyTime.ts";
import type { ValidationIssue } from "../errors.ts";

/** A parsed filter value: dates stay `YYYY-MM-DD`, date-times become epoch nanoseconds. */
export type FilterValue = string | number | bigint;

export type Parsed = { ok: true; value: FilterValue } | { ok: false; issue: ValidationIssue };

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Why a string is not a real YYYY-MM-DD date, or undefined when it is one. */
function dateError(text: string): string | undefined {
  if (text.length < 10) return "input is too short";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return "invalid date separator or characters, expected YYYY-MM-DD";
  const [y, m, d] = text.split("-").map(Number);
  if (m < 1 || m > 12) return "month value is outside expected range of 1-12";
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const max = m === 2 && !leap ? 28 : DAYS_IN_MONTH[m - 1];
  if (d < 1 || d > max) return "day value is outside expected range";
  return undefined;
}

const DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Epoch nanoseconds of an ISO 8601 date-time; New York time when no offset is given. */
function parseDateTime(text: string): bigint | undefined {
  const m = DATETIME.exec(text);
  if (!m || dateError(m[1])) return undefined;
  const [hh, mm, ss] = [m[2] ?? "0", m[3] ?? "0", m[4] ?? "0"].map(Number);
  if (hh > 23 || mm > 59 || ss > 59) return undefined;
  let offsetMinutes: number;
  if (m[6] === undefined) offsetMinutes = nyUtcOffsetMinutes(m[1]);
  else if (m[6] === "Z") offsetMinutes = 0;
  else {
    const sign = m[6][0] === "-" ? -1 : 1;
    const digits = m[6].slice(1).replace(":", "");
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const [y, mo, d] = m[1].split("-").map(Number);
  const utcMs = Date.UTC(y, mo - 1, d, hh, mm, ss) - offsetMinutes * 60_000;
  const fraction = BigInt((m[5] ?? "").padEnd(9, "0") || "0");
  return BigInt(utcMs) * 1_000_000n + fraction;
}

/** Parses one value for a column type; `loc` names where it came from. */
export function parseValue(type: ColumnType, text: string, loc: (string | number)[]): Parsed {
  switch (type) {
    case "date": {
      const error = dateError(text);
      if (!error) return { ok: true, value: text };
      return {
        ok: false,
        issue: {
          type: "date_from_datetime_parsing",
          loc,
          msg: `Input should be a valid date or datetime, ${error}`,
          input: text,
          ctx: { error },
        },
      };
    }
    case "datetime_ns":
    case "datetime_ms": {
      const ns = parseDateTime(text);
      if (ns !== undefined) return { ok: true, value: ns };
      return {
        ok: false,
        issue: {
          type: "datetime_from_date_parsing",
          loc,
          msg: "Input should be a valid datetime, expected ISO 8601 such as 2023-11-21T09:30:00 (New York time) or with an offset",
          input: text,
          ctx: { error: "invalid datetime" },
        },
      };
    }
    case "int64": {
      if (/^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return { ok: true, value: Number(text) };
      return {
        ok: false,
        issue: { type: "int_parsing", loc, msg: "Input should be a valid integer, unable to parse string as an integer", input: text },
      };
    }
    case "float64": {
      const n = Number(text);
      if (text.trim() !== "" && Number.isFinite(n)) return { ok: true, value: n };
      return {
        ok: false,
        issue: { type: "float_parsing", loc, msg: "Input should be a valid number, unable to parse string as a number", input: text },
      };
    }
    case "string":
    case "list_string":
      return { ok: true, value: text };
  }
}
