/** Date labels that carry the year whenever an axis crosses one. */

/**
 * Formats YYYY-MM-DD tick values: "MM-DD" when every tick is in one year, else the full date
 * at the first tick and at the first tick of each new year.
 *
 * @example
 * ```ts
 * const format = dateTickFormat(["2023-12-28", "2024-01-02"]); // "2023-12-28", "2024-01-02"
 * ```
 */
export function dateTickFormat(ticks: string[]): (d: string) => string {
  const years = new Set(ticks.map((t) => t.slice(0, 4)));
  if (years.size <= 1) return (d) => d.slice(5);
  const firstOfYear = new Set<string>();
  let year = "";
  for (const t of [...ticks].sort()) {
    if (t.slice(0, 4) !== year) firstOfYear.add(t);
    year = t.slice(0, 4);
  }
  return (d) => (firstOfYear.has(d) ? d : d.slice(5));
}
