/**
 * A download's `columns`, completed with the lake's partition columns. A lake's files are laid
 * out by Ticker and TradeDate (its folders and its chunk files' rows), and every engine that
 * reads the lake shows them, so a researcher who narrows the columns means the data columns:
 * refusing would only make them type the keys again. The partition columns are added, and the
 * download's warnings say so.
 */

/**
 * The columns a download asks for, with those of `layout` it lacks added in front, and the
 * warning that says so; `columns` unchanged (and no warning) when it is absent or complete.
 *
 * @example
 * ```ts
 * withPartitionColumns("eq-taq-1min", ["BarDateTime", "Volume"], ["Ticker", "TradeDate"]);
 * // { columns: ["Ticker", "TradeDate", "BarDateTime", "Volume"], warning: "columns lacks the lake's partition columns Ticker, TradeDate: added ..." }
 * ```
 */
export function withPartitionColumns(
  dataset: string,
  columns: readonly string[] | undefined,
  layout: readonly string[],
): { columns: string[] | undefined; warning?: string } {
  if (columns === undefined || !Array.isArray(columns)) return { columns: columns as string[] | undefined };
  const missing = layout.filter((c) => !columns.includes(c));
  if (missing.length === 0) return { columns: [...columns] };
  const plural = missing.length > 1;
  return {
    columns: [...missing, ...columns],
    warning: `columns lacks the lake's partition column${plural ? "s" : ""} ${
      missing.join(", ")
    }: added (a lake of ${dataset} is laid out by ${layout.join(" and ")}, and a scan of it shows ${plural ? "them" : "it"})`,
  };
}
