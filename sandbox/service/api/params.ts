/**
 * Request parameters as zod schemas: each one both validates a query or path value (its
 * failures carry the exact FastAPI/pydantic v2 issue of notes.md, which the app's hook turns
 * into the 422 body) and describes it in /openapi.json (its `.meta` is the JSON schema a
 * client reads: an integer with bounds, an enum, a date...). One definition, two uses.
 */
import { z } from "zod";
import type { Column, ColumnType } from "../../market/schema.ts";
import type { ValidationIssue } from "../errors.ts";
import { inListIssue, MAX_IN_VALUES, MAX_PATTERN_LENGTH, patternIssue } from "../query/limits.ts";
import { type FilterValue, parseValue } from "../query/values.ts";

/** The FastAPI issue a failed parameter reports, kept on the zod issue (see fastApiIssues). */
function report(ctx: z.RefinementCtx, issue: ValidationIssue): typeof z.NEVER {
  ctx.addIssue({ code: "custom", message: issue.msg, input: issue.input, params: { fastapi: issue } });
  return z.NEVER;
}

/**
 * The 422 `detail` entries of a failed validation: the FastAPI issue each parameter schema
 * recorded, or, for anything else, a value_error naming where and what.
 */
export function fastApiIssues(error: z.ZodError, where: "query" | "path"): ValidationIssue[] {
  return error.issues.map((issue) => {
    const recorded = (issue as { params?: { fastapi?: ValidationIssue } }).params?.fastapi;
    return recorded ??
      {
        type: "value_error",
        loc: [where, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
        msg: issue.message,
        input: (issue as { input?: unknown }).input ?? "",
      };
  });
}

/** JSON schema of a column's values, as a parameter or record field documents them. */
const JSON_TYPES: Record<ColumnType, Record<string, unknown>> = {
  date: { type: "string", format: "date" },
  datetime_ns: { type: "string", format: "date-time", description: "New York time with offset, nanoseconds" },
  datetime_ms: { type: "string", format: "date-time", description: "New York time with offset, milliseconds" },
  int64: { type: "integer", format: "int64" },
  float64: { type: "number" },
  string: { type: "string" },
  list_string: { type: "array", items: { type: "string" } },
};

/**
 * An integer query parameter: decimal digits with an optional sign, nothing else, within
 * `[min, max]`.
 *
 * @example
 * ```ts
 * integerQuery("limit", 0, 100_000, 10_000, "Records in the page").parse("170"); // 170
 * ```
 */
export function integerQuery(name: string, min: number, max: number, defaultValue: number, description: string) {
  return z.string().transform((text, ctx) => {
    if (!/^[+-]?[0-9]+$/.test(text)) {
      return report(ctx, {
        type: "int_parsing",
        loc: ["query", name],
        msg: "Input should be a valid integer, unable to parse string as an integer",
        input: text,
      });
    }
    const n = Number(text);
    if (n < min) {
      return report(ctx, {
        type: "greater_than_equal",
        loc: ["query", name],
        msg: `Input should be greater than or equal to ${min}`,
        input: text,
        ctx: { ge: min },
      });
    }
    if (n > max) {
      return report(ctx, {
        type: "less_than_equal",
        loc: ["query", name],
        msg: `Input should be less than or equal to ${max}`,
        input: text,
        ctx: { le: max },
      });
    }
    return n === 0 ? 0 : n; // -0 is 0
  }).optional().meta({ type: "integer", minimum: min, maximum: max, default: defaultValue, description });
}

const quoteList = (values: readonly string[]) =>
  values.length === 1 ? `'${values[0]}'` : `${values.slice(0, -1).map((v) => `'${v}'`).join(", ")} or '${values.at(-1)}'`;

/**
 * A query parameter taking one of `values`.
 *
 * @example
 * ```ts
 * enumQuery("response_format", ["json", "csv", "csv_gzip"], "json", "Body format").parse("csv"); // "csv"
 * ```
 */
export function enumQuery<T extends string>(name: string, values: readonly T[], defaultValue: T, description: string) {
  return z.string().transform((text, ctx) => {
    if ((values as readonly string[]).includes(text)) return text as T;
    return report(ctx, {
      type: "enum",
      loc: ["query", name],
      msg: `Input should be ${quoteList(values)}`,
      input: text,
      ctx: { expected: quoteList(values) },
    });
  }).optional().meta({ type: "string", enum: [...values], default: defaultValue, description });
}

/**
 * A comma-separated list of column names (`columns`, `sort`), checked by the route against the
 * dataset; documented as a non-empty list with no empty item (those always answer 422).
 */
export function columnListQuery(description: string, prefix = "") {
  const item = `${prefix}[^,]+`;
  return z.string().optional().meta({ type: "string", minLength: 1, pattern: `^${item}(,${item})*$`, description });
}

/**
 * A filter parameter `Column` or `Column.op`: each occurrence's value parsed by the column's
 * type (`in` takes a comma-separated list of at most MAX_IN_VALUES values; like/ilike a `*`
 * pattern of at most MAX_PATTERN_LENGTH characters), into one value list per occurrence.
 *
 * @example
 * ```ts
 * filterQuery(column, "in", "Ticker.in").parse("AAPL,MSFT"); // [["AAPL", "MSFT"]]
 * ```
 */
export function filterQuery(column: Column, op: string, name: string, where: "query" | "path" = "query") {
  const loc = [where, name];
  const one = (text: string, ctx: z.RefinementCtx): FilterValue[] | undefined => {
    const texts = op === "in" ? text.split(",") : [text];
    // Counted before any value is parsed: a list past the limit costs nothing more.
    const tooLong = op === "in"
      ? inListIssue(loc, text, texts.length)
      : op === "like" || op === "ilike"
      ? patternIssue(loc, text)
      : undefined;
    if (tooLong) {
      report(ctx, tooLong);
      return undefined;
    }
    const values: FilterValue[] = [];
    let ok = true;
    for (const t of texts) {
      if (op === "like" || op === "ilike") values.push(t);
      else {
        const parsed = parseValue(column.type, t, loc);
        if (parsed.ok) values.push(parsed.value);
        else {
          ok = false;
          report(ctx, parsed.issue);
        }
      }
    }
    return ok ? values : undefined;
  };
  const described = op === "in"
    ? ` (comma-separated, at most ${MAX_IN_VALUES} values)`
    : op.includes("like")
    ? ` (* is the wildcard; at most ${MAX_PATTERN_LENGTH} characters)`
    : "";
  const text = column.type === "list_string" || column.type.startsWith("datetime") || ["in", "like", "ilike"].includes(op);
  const meta = {
    ...(text ? { type: "string" } : JSON_TYPES[column.type]),
    description: `Filter: ${column.name} ${op === "eq" ? "equals the value" : op}${described}. ${column.description}`,
  };
  const schema = z.union([z.string(), z.array(z.string())]).transform((raw, ctx) => {
    const lists = (Array.isArray(raw) ? raw : [raw]).map((t) => one(t, ctx));
    return lists.every((l) => l !== undefined) ? (lists as FilterValue[][]) : z.NEVER;
  });
  return where === "query" ? schema.optional().meta(meta) : schema.meta(meta);
}

/**
 * Makes `schema` (an object of optional query parameters) validate only the parameters a
 * request gives, each with its own schema, instead of walking every key of the object: a
 * dataset's route describes some 400 filter parameters, and zod's walk over all of them
 * was a fifth of what a small page cost the service. The answer is what zod's own parse of
 * the object gives (absent parameters stay absent, unknown ones are dropped, each issue's
 * path starts with its parameter); the object itself still describes the route in
 * /openapi.json. Returns `schema`.
 *
 * @example
 * ```ts
 * const query = presentKeysOnly(z.object({ limit: integerQuery("limit", 0, 100, 10, "Rows") }));
 * await query.safeParseAsync({ limit: "5" }); // { success: true, data: { limit: 5 } }
 * ```
 */
export function presentKeysOnly<T extends z.ZodObject>(schema: T): T {
  const shape = schema.shape as Record<string, z.ZodType>;
  const order = new Map(Object.keys(shape).map((key, i) => [key, i]));
  const parse = (input: unknown) => {
    const parsed: [number, string, unknown][] = [];
    const issues: z.core.$ZodIssue[] = [];
    for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
      const at = order.get(key);
      if (at === undefined) continue;
      const result = shape[key].safeParse(value);
      if (!result.success) issues.push(...result.error.issues.map((issue) => ({ ...issue, path: [key, ...issue.path] })));
      else if (result.data !== undefined) parsed.push([at, key, result.data]);
    }
    if (issues.length > 0) return { success: false as const, error: new z.ZodError(issues) };
    // In the object's order, as zod gives them.
    return { success: true as const, data: Object.fromEntries(parsed.sort((a, b) => a[0] - b[0]).map(([, key, value]) => [key, value])) };
  };
  Object.assign(schema, { safeParse: parse, safeParseAsync: (input: unknown) => Promise.resolve(parse(input)) });
  return schema;
}
