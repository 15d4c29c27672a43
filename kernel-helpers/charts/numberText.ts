/**
 * Numbers as the charts write them: tick labels compact once values reach the hundred
 * thousands ("180M", not "180,000,000"), with the decimals their step needs below that; hover
 * titles as the table rounds each column (the decimals its most precise value needs, at most
 * six, thousands separated), never "3.8000000000000003".
 */
import pl from "nodejs-polars";
import { columnTexts } from "../display/cellText.ts";

/** From this magnitude on, tick labels are compact (250K, 1.5M, 180M). */
const COMPACT_FROM = 100_000;

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 2 });

/**
 * A tick format for values of magnitude up to `largest`: compact from 100,000 on, else `undefined`
 * (Plot's own, which gives every tick the decimals of the step: 0.0, 0.5, 1.0).
 *
 * @example
 * ```ts
 * compactTickFormat(180_000_000)?.(150_000_000); // "150M"
 * compactTickFormat(190); // undefined
 * ```
 */
export function compactTickFormat(largest: number): ((v: number) => string) | undefined {
  return Math.abs(largest) >= COMPACT_FROM ? (v: number) => compact.format(v) : undefined;
}

/**
 * Labels for ticks `step` apart: compact when the largest reaches 100,000, else fixed with the
 * decimals the step needs, thousands separated (what Plot writes on a linear axis).
 *
 * @example
 * ```ts
 * tickLabels([0, 0.5, 1], 0.5); // ["0.0", "0.5", "1.0"]
 * tickLabels([0, 5e7, 1e8], 5e7); // ["0", "50M", "100M"]
 * ```
 */
export function tickLabels(ticks: readonly number[], step: number): string[] {
  const largest = Math.max(0, ...ticks.map(Math.abs));
  const asCompact = compactTickFormat(largest);
  if (asCompact) return ticks.map(asCompact);
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const fixed = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return ticks.map((t) => fixed.format(t));
}

/** The hover texts of a frame's columns, row by row, keyed by column. */
export type ShownValues = Map<string, (string | null)[]>;

/** Frames above this many rows get no table texts (their charts draw no hover titles either). */
const MOST_ROWS = 50_000;

/**
 * Each numeric column's values as the table shows them, in the frame's row order: one number of
 * decimals per column, as many as its most precise value needs (at most six), with separators.
 *
 * @example
 * ```ts
 * shownValues(frame, ["Range"]).get("Range"); // ["3.80", "2.41"]: two decimals each, as the table
 * ```
 */
export function shownValues(frame: pl.DataFrame, columns: readonly string[]): ShownValues {
  const shown: ShownValues = new Map();
  if (frame.height > MOST_ROWS) return shown;
  const numeric = [...new Set(columns)].filter((c) => frame.columns.includes(c) && frame.getColumn(c).isNumeric());
  if (numeric.length === 0) return shown;
  const texts = columnTexts(frame.select(...numeric.map((c) => pl.col(c))));
  numeric.forEach((c, i) => shown.set(c, texts[i].values));
  return shown;
}

/**
 * A value as a hover title shows it: the table's text when known, else rounded to the 15
 * significant digits a double carries (so 0.1 + 0.2 reads 0.3).
 *
 * @example
 * ```ts
 * valueText(3.8000000000000003); // "3.8"
 * ```
 */
export function valueText(value: unknown, shown?: string | null): string {
  if (shown !== undefined && shown !== null) return shown;
  if (typeof value === "number" && Number.isFinite(value)) {
    return Number(value.toPrecision(15)).toLocaleString("en-US", { maximumFractionDigits: 6 });
  }
  return String(value);
}
