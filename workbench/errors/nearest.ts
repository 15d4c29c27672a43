/**
 * "Did you mean ...?": the known names closest to a mistyped one, by edit distance (case
 * ignored), for option names, dataset ids and tickers alike.
 */

/** Levenshtein distance with adjacent transpositions counted as one edit ("APPL" -> "AAPL" is 1). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * Up to `count` known names nearest to `name` (closest first), within a distance that grows
 * with the name's length; empty when nothing is close.
 *
 * @example
 * ```ts
 * nearestNames("APPL", ["AAPL", "MSFT", "SPY"]); // ["AAPL"]
 * nearestNames("limit", ["maxRows", "pageSize"]); // []
 * ```
 */
export function nearestNames(name: string, known: readonly string[], count = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(wanted.length / 2)));
  return known
    .map((k) => ({ k, d: editDistance(wanted, k.toLowerCase()) }))
    .filter(({ d }) => d <= limit)
    .sort((x, y) => x.d - y.d || x.k.localeCompare(y.k))
    .slice(0, count)
    .map(({ k }) => k);
}

/** ` (did you mean 'x'?)` or ` (did you mean 'x' or 'y'?)`, or "" when nothing is close. */
export function didYouMean(name: string, known: readonly string[]): string {
  const near = nearestNames(name, known);
  return near.length ? ` (did you mean ${near.map((n) => `'${n}'`).join(" or ")}?)` : "";
}
