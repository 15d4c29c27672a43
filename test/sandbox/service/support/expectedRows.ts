/**
 * An expected frame in the forms a page is compared with, each built once, when first needed:
 * the canonical rows of polarsExpected.ts (for the full comparison and its messages), the
 * cells as a JSON body should carry them, and a frame of the text a CSV body should carry.
 *
 * The JSON and CSV forms are shortcuts, never a looser test: a wire cell equal to its form
 * reads (pagingWire.ts) to the expected canonical cell. Texts and integers are that cell
 * itself; a float is the same double; a date-time is rendered in its own zone with its
 * column's digits, and each rendering is read back here through the wire reader's own parser
 * to the expected epoch nanoseconds, or that cell gets no shortcut.
 */
import pl from "nodejs-polars";
import type { Dataset } from "../../../../sandbox/market/catalog.ts";
import type { ColumnType } from "../../../../sandbox/market/schema.ts";
import { columnTypes, frameRows } from "./polarsExpected.ts";
import { isoDateTime } from "./pagingWire.ts";

/** Never equal to a wire value: the cell has no shortcut. */
export const NO_SHORTCUT = Symbol("no shortcut");

const DIGITS: Partial<Record<ColumnType, number>> = { datetime_ns: 9, datetime_ms: 3 };

// Built once per column and type: nodejs-polars makes every Expr a large object of closures.
const forms = new Map<string, pl.Expr | undefined>();

/** A column as the wire form's expression, or undefined when it has none (lists). */
function wireForm(name: string, type: ColumnType): pl.Expr | undefined {
  const key = `${name}\u0000${type}`;
  if (!forms.has(key)) forms.set(key, buildWireForm(name, type));
  return forms.get(key);
}

const epochTexts = new Map<string, pl.Expr>();
const epochText = (name: string) =>
  epochTexts.get(name) ?? epochTexts.set(name, pl.col(name).cast(pl.Int64).cast(pl.Utf8).alias(`${name}\u0000ns`)).get(name)!;

function buildWireForm(name: string, type: ColumnType): pl.Expr | undefined {
  const c = pl.col(name);
  switch (type) {
    case "date":
      return c.dt.strftime("%Y-%m-%d");
    case "datetime_ns":
    case "datetime_ms":
      return c.dt.strftime(`%Y-%m-%dT%H:%M:%S%.${DIGITS[type]}f%:z`);
    case "int64":
      return c.cast(pl.Utf8);
    case "float64":
      return c.cast(pl.Float64);
    case "string":
      return c.cast(pl.Utf8);
    case "list_string":
      return undefined;
  }
}

/** Nulls where a rendered date-time does not read back to its epoch nanoseconds. */
function checkedRenderings(
  rendered: (string | null)[],
  epochNs: (string | null)[],
  digits: number,
): (string | null | typeof NO_SHORTCUT)[] {
  return rendered.map((text, i) => {
    if (text === null) return epochNs[i] === null ? null : NO_SHORTCUT;
    try {
      const back = isoDateTime(text);
      return back.digits === digits && String(back.epochNs) === epochNs[i] ? text : NO_SHORTCUT;
    } catch {
      return NO_SHORTCUT;
    }
  });
}

export class ExpectedRows {
  readonly frame: pl.DataFrame;
  readonly dataset: Dataset;
  readonly types: ColumnType[];
  #rows?: string[];
  #json?: Map<string, unknown[]>;
  #csv?: pl.DataFrame | null;

  constructor(frame: pl.DataFrame, dataset: Dataset) {
    this.frame = frame;
    this.dataset = dataset;
    const types = columnTypes(dataset);
    this.types = frame.columns.map((name) =>
      types.get(name) ?? (() => {
        throw new Error(`Column '${name}' is not in the catalog of ${dataset.textId}`);
      })()
    );
  }

  get height(): number {
    return this.frame.height;
  }

  get columns(): string[] {
    return this.frame.columns;
  }

  /** Canonical rows (polarsExpected.ts). */
  get rows(): string[] {
    return (this.#rows ??= frameRows(this.frame, this.dataset));
  }

  /** Each column's cells as a JSON body carries them (NO_SHORTCUT where none is safe). */
  get json(): Map<string, unknown[]> {
    if (this.#json) return this.#json;
    const json = new Map<string, unknown[]>();
    const forms = this.frame.select(...this.columns.flatMap((name, j) => {
      const form = wireForm(name, this.types[j]);
      const digits = DIGITS[this.types[j]];
      return form === undefined ? [] : digits ? [form, epochText(name)] : [form];
    }));
    const arrays = new Map(forms.columns.map((name) => [name, forms.getColumn(name).toArray() as unknown[]]));
    this.columns.forEach((name, j) => {
      const type = this.types[j], values = arrays.get(name);
      if (values === undefined) json.set(name, new Array(this.height).fill(NO_SHORTCUT));
      else if (DIGITS[type]) {
        json.set(name, checkedRenderings(values as (string | null)[], arrays.get(`${name}\u0000ns`) as (string | null)[], DIGITS[type]!));
      } else if (type === "int64") {
        json.set(
          name,
          (values as (string | null)[]).map((text) => {
            if (text === null) return null;
            const n = Number(text);
            return Number.isSafeInteger(n) && String(n) === text ? n : NO_SHORTCUT;
          }),
        );
      } else json.set(name, values);
    });
    return (this.#json = json);
  }

  /**
   * The text a CSV body carries for each column (floats as Float64, compared as numbers), or
   * null when some column has no shortcut.
   */
  get csv(): pl.DataFrame | null {
    if (this.#csv !== undefined) return this.#csv;
    const json = this.json;
    const whole = this.columns.every((name) => !json.get(name)!.includes(NO_SHORTCUT));
    return (this.#csv = whole ? this.frame.select(...this.columns.map((name, j) => wireForm(name, this.types[j])!)) : null);
  }
}

/** A frame's expected rows, in every form. */
export function expectedRows(frame: pl.DataFrame, dataset: Dataset): ExpectedRows {
  return new ExpectedRows(frame, dataset);
}
