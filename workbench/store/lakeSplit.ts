/**
 * A downloaded unit (one request's frame) cut into its trade dates, the lake's partitions.
 */
import pl from "nodejs-polars";

/**
 * The frame's rows by date, in their order (no per-row JavaScript). The usual unit has each
 * date as one run of rows (the service answers sorted by date): its parts are then slices of
 * the frame, found by one Polars select (the dates in order of appearance, their row counts and
 * how often the date changes between neighbours) and cut without copying. Otherwise Polars
 * groups the rows (`partitionBy`, stable). `contiguous` says which: the provenance record then
 * hashes the unit once and each partition from its run of the row hashes.
 *
 * @example
 * ```ts
 * const { byDate, contiguous } = splitByDate(unit, "TradeDate");
 * byDate.get("2023-11-21")?.height; // 390
 * ```
 */
export function splitByDate(frame: pl.DataFrame, column: string): { byDate: Map<string, pl.DataFrame>; contiguous: boolean } {
  const date = pl.col(column);
  const runs = frame.select(
    date.unique({ maintainOrder: true }).cast(pl.String).alias("date"),
    date.uniqueCounts().alias("rows"),
    date.neq(date.shift(1)).sum().alias("changes"),
  );
  const dates = (runs.getColumn("date").toArray() as (string | null)[]).map(String);
  const counts = runs.getColumn("rows").toArray() as number[];
  // Each date is one run when the date changes between neighbours one time fewer than there
  // are dates: the runs, in order of first appearance, then lie end to end.
  const contiguous = Number(runs.getColumn("changes").get(0) ?? 0) + 1 === dates.length;
  if (!contiguous) {
    const parts = frame.partitionBy([column], true, true);
    return { byDate: new Map(parts.map((part) => [String(part.getColumn(column).cast(pl.String).get(0)), part])), contiguous };
  }
  let offset = 0;
  return { byDate: new Map(dates.map((d, k) => [d, frame.slice((offset += counts[k]) - counts[k], counts[k])])), contiguous };
}
