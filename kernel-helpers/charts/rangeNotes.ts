/**
 * Notes a chart shows above itself when its axis would mislead without them: points that fall
 * outside a domain the caller gave (they are not drawn), and a lone point that stretches the y
 * axis (0 to 2,000 for values near 190), with the domain that shows the rest.
 */
import { valueText } from "./numberText.ts";
import { niceTicks } from "./valueScale.ts";

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const text = (v: number) => valueText(v);
const plural = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;

/**
 * How many points lie outside a domain the caller gave on `axis` (numbers, or Dates), said as a
 * note with the domain's ends as `format` writes them; undefined when all are inside (or the
 * domain is not two numbers or Dates).
 *
 * @example
 * ```ts
 * outsideNote([185, 192, 201], [180, 190], "y"); // "2 of 3 points lie outside the y domain 180 to 190 (2 above) and are not drawn"
 * ```
 */
function outsideNote(values: readonly unknown[], domain: unknown, axis: string, format: (v: number) => string = text): string | undefined {
  const asNumber = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  if (!Array.isArray(domain) || domain.length !== 2) return undefined;
  const ends = domain.map(asNumber);
  if (!finite(ends[0]) || !finite(ends[1])) return undefined;
  const [lo, hi] = [Math.min(ends[0], ends[1]), Math.max(ends[0], ends[1])];
  const points = values.map(asNumber).filter(finite);
  const above = points.filter((v) => v > hi).length, below = points.filter((v) => v < lo).length;
  if (above + below === 0) return undefined;
  const sides = [above && `${above.toLocaleString("en-US")} above`, below && `${below.toLocaleString("en-US")} below`].filter(Boolean).join(
    ", ",
  );
  return `${(above + below).toLocaleString("en-US")} of ${plural(points.length, "point")} lie outside the ${axis} domain ${format(lo)} to ${
    format(hi)
  } (${sides}) and are not drawn`;
}

/** At most this many points count as "a few" that stretch an axis. */
const FEW = 3;
/** The rest of the points span less than this share of the axis the few stretch. */
const SQUEEZED = 0.2;

/**
 * A note when one point (or up to three) at one end stretches the axis so far that the others
 * take under a fifth of it: their values, where they are (`where(i)`, e.g. "2023-12-05"), the
 * others' range and the domain that shows them.
 *
 * @example
 * ```ts
 * stretchNote([171, 175, 2000, 180], "y", (i) => ["11-01", "11-02", "11-03", "11-06"][i]);
 * // "One point stretches the y axis: 2,000 (11-03); the other 3 run 171 to 180: { y: { domain: [170, 180] } } shows them"
 * ```
 */
function stretchNote(values: readonly unknown[], axis: string, where: (i: number) => string = () => ""): string | undefined {
  const points = values.map((v, i) => ({ v, i })).filter((p): p is { v: number; i: number } => finite(p.v)).sort((a, b) => a.v - b.v);
  if (points.length < 8) return undefined;
  const full = points.at(-1)!.v - points[0].v;
  if (!(full > 0)) return undefined;
  for (const k of [1, 2, FEW].slice(0, Math.min(FEW, Math.floor(points.length / 8)))) {
    for (const high of [true, false]) {
      const few = high ? points.slice(-k) : points.slice(0, k);
      const rest = high ? points.slice(0, -k) : points.slice(k);
      const restSpan = rest.at(-1)!.v - rest[0].v;
      if (restSpan >= SQUEEZED * full) continue;
      const named = few.map((p) => `${text(p.v)}${where(p.i) ? ` (${where(p.i)})` : ""}`).join(", ");
      const nice = niceTicks(rest[0].v, rest.at(-1)!.v, 5).domain;
      const count = ["One point", "Two points", "Three points"][k - 1];
      return `${count} ${k === 1 ? "stretches" : "stretch"} the ${axis} axis: ${named}; the other ${
        rest.length.toLocaleString("en-US")
      } run ${text(rest[0].v)} to ${text(rest.at(-1)!.v)}: { ${axis}: { domain: [${nice.map(String).join(", ")}] } } shows them`;
    }
  }
  return undefined;
}

/** What `valueNotes` reads: the records, the value fields on y, the caller's options, and how a record is named. */
export interface ValueNotesInput {
  /** The records drawn. */
  data: readonly Record<string, unknown>[];
  /** The fields drawn on y (a candle's open, high, low and close). */
  fields: readonly string[];
  /** The caller's Plot options: a y domain given is checked for points outside it. */
  overrides: { x?: unknown; y?: unknown };
  /** The panel column when each panel has its own y scale (then each panel is judged alone). */
  panel?: string;
  /** Where a record is, for the note (e.g. "AAPL 2023-12-05"). */
  where: (r: Record<string, unknown>) => string;
  /** The field placed across, when a caller's x domain may leave points out, and how to write its values. */
  x?: { field: string; format?: (v: number) => string };
  /** Whether a few points stretching the axis are noted (not for bars from zero, whose heights are the point). */
  stretch?: boolean;
}

/**
 * The notes of a chart's values: points outside an x or y domain the caller gave (`x` names the
 * field placed across and how to write its values), or a few points stretching a linear y axis
 * (per panel when each panel has its own scale).
 *
 * @example
 * ```ts
 * valueNotes({ data, fields: ["ClosePrice"], overrides: {}, where: (r) => String(r.TradeDate) });
 * ```
 */
export function valueNotes(input: ValueNotesInput): string[] {
  const { data, fields, panel, where } = input;
  const y = (input.overrides.y ?? {}) as { domain?: unknown; type?: string };
  const xDomain = ((input.overrides as { x?: unknown }).x as { domain?: unknown } | undefined)?.domain;
  const across = input.x && xDomain !== undefined ? [outsideNote(data.map((r) => r[input.x!.field]), xDomain, "x", input.x.format)] : [];
  const values = (rows: readonly Record<string, unknown>[]) => rows.flatMap((r) => fields.map((f) => r[f]));
  if (y.domain !== undefined) return [...across, outsideNote(values(data), y.domain, "y")].filter((n): n is string => n !== undefined);
  if ((y.type !== undefined && y.type !== "linear") || input.stretch === false) return across.filter((n): n is string => n !== undefined);
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of data) {
    const key = panel ? String(r[panel]) : "";
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  const stretched = [...groups].flatMap(([key, rows]) => {
    const note = stretchNote(values(rows), "y", (i) => where(rows[Math.floor(i / fields.length)]));
    return note ? [panel ? `${key}: ${note}` : note] : [];
  });
  return [...across.filter((n): n is string => n !== undefined), ...stretched];
}
