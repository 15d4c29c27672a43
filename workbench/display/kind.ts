/**
 * Names what a plain object returned by the workbench is (an estimate, a dataset status, a
 * download result), so a notebook can render it richly. The tag is a non-enumerable symbol
 * property: it changes neither equality in tests, JSON output, nor `Object.keys`.
 */

/** Kinds of plain workbench objects a notebook renders as cards. */
export type DisplayKind = "estimate" | "dataset-status" | "download-result" | "cache-check" | "workbench-summary";

const KIND = Symbol.for("market-workbench.displayKind");

/**
 * Tags `value` with its kind and returns it.
 *
 * @example
 * ```ts
 * return displayAs({ dir, rows, parts, resumed }, "download-result");
 * ```
 */
export function displayAs<T extends object>(value: T, kind: DisplayKind): T {
  Object.defineProperty(value, KIND, { value: kind, enumerable: false, configurable: true });
  return value;
}

/**
 * The kind a value was tagged with, if any.
 *
 * @example
 * ```ts
 * displayKindOf(await wb.estimate("eq-taq-1min")); // "estimate"
 * ```
 */
export function displayKindOf(value: unknown): DisplayKind | undefined {
  return value !== null && typeof value === "object" ? ((value as Record<symbol, DisplayKind | undefined>)[KIND]) : undefined;
}
