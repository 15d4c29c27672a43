/**
 * Turns a parameter given on the command line into a TypeScript literal of its default's
 * type, so that `--param minutes=45` assigns the number 45 and `--param ticker=45` the string.
 */
import { type Declaration, literalValue } from "./declarations.ts";
import { ParameterError } from "./errors.ts";

/**
 * The literal to assign for `raw`, typed by the declaration's default.
 *
 * - number: any finite number (`45`, `-0.5`, `1e3`)
 * - string: the text as given
 * - boolean: `true` or `false`
 * - array: JSON (`["AAPL","MSFT"]`) or comma-separated (`AAPL,MSFT`), elements typed like the default's
 * - anything else: a JSON value
 *
 * @throws {ParameterError} naming the parameter, its expected type and the value
 * @example
 * literal({ name: "tickers", kind: "array", value: ["AAPL"], ... }, "AAPL,MSFT"); // '["AAPL","MSFT"]'
 */
export function literal(d: Declaration, raw: string): string {
  const fail = (expected: string): never => {
    throw new ParameterError(`Parameter '${d.name}' expects ${expected} (its default is ${d.text}); got '${raw}'`);
  };
  switch (d.kind) {
    case "number":
      return JSON.stringify(toNumber(raw) ?? fail("a number"));
    case "string":
      return JSON.stringify(raw);
    case "boolean":
      return String(toBoolean(raw) ?? fail("true or false"));
    case "array": {
      const element = elementKind(d.value as unknown[]);
      const items = raw.trim().startsWith("[") ? json(raw) : raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
      if (!Array.isArray(items)) return fail("an array, as JSON or comma-separated");
      const typed = items.map((item) => typedElement(element, item));
      if (typed.some((item) => item === undefined)) fail(`an array of ${element}s, as JSON or comma-separated`);
      return JSON.stringify(typed);
    }
    default: {
      const value = json(raw);
      return value === undefined ? fail("a JSON value") : JSON.stringify(value);
    }
  }
}

function toNumber(raw: string): number | undefined {
  const n = raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

function toBoolean(raw: string): boolean | undefined {
  return raw === "true" ? true : raw === "false" ? false : undefined;
}

/** A JSON value (or a JS literal such as `{ from: '2023-11-01' }`), else undefined. */
function json(raw: string): unknown {
  const parsed = literalValue(raw.trim());
  return parsed.ok ? parsed.value : undefined;
}

/** The common type of the default's elements; strings when mixed or empty. */
function elementKind(items: unknown[]): "number" | "string" | "boolean" | "value" {
  const kinds = new Set(items.map((item) => typeof item));
  if (kinds.size !== 1) return items.length === 0 ? "string" : "value";
  const [kind] = kinds;
  return kind === "number" || kind === "boolean" || kind === "string" ? kind : "value";
}

function typedElement(kind: ReturnType<typeof elementKind>, item: unknown): unknown {
  if (kind === "value" || typeof item !== "string") {
    return kind === "value" || typeof item === kind ? item : undefined;
  }
  if (kind === "number") return toNumber(item);
  if (kind === "boolean") return toBoolean(item);
  return item;
}
