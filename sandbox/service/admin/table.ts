/** Plain-text tables for the admin command's human output. */

/**
 * Lays `rows` out under `headers` in left-aligned columns; an empty list says so.
 *
 * @example
 * ```ts
 * table(["id", "name"], [[1, "Demo"]]);
 * // "id  name\n1   Demo"
 * ```
 */
export function table(headers: string[], rows: unknown[][]): string {
  if (rows.length === 0) return "(none)";
  const cells = [headers, ...rows.map((r) => r.map(cell))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells.map((r) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join("\n");
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) return value.length === 0 ? "-" : value.join(",");
  return String(value);
}
