/** Byte counts in binary units, the unit always named. */

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/**
 * "10 GiB" for 10 × 2^30 bytes, "1.5 MiB", "512 B".
 *
 * @example
 * ```ts
 * formatBytes(10 * 2 ** 30); // "10 GiB"
 * ```
 */
export function formatBytes(bytes: number): string {
  let value = bytes, i = 0;
  while (Math.abs(value) >= 1024 && i < UNITS.length - 1) {
    value /= 1024;
    i++;
  }
  const text = i === 0 ? String(Math.round(value)) : Number(value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)).toLocaleString("en-US");
  return `${text} ${UNITS[i]}`;
}
