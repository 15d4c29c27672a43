/**
 * What a download does with the folder's files before it runs: a damaged or missing file loses
 * its partitions' records (so they are fetched again) and is removed, and so is a file that no
 * partition records. The folder is then what its manifest says, and no row is on disk twice.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { damageChecker, unrecordedFiles } from "./lakeCheck.ts";
import { partitionFile } from "./lakePlan.ts";
import { dateInsideFiles, type Manifest } from "./manifest.ts";

/**
 * Checks what the folder holds before a run: the range's partitions whose file is damaged or
 * missing lose their records (fetched again); where several days share a file, its other
 * partitions lose theirs too and the file is removed. A file no record names (left by a
 * download killed between writing and recording it) is removed, so no row is on disk twice.
 * Returns a warning for each.
 *
 * @example
 * ```ts
 * import { readManifest } from "./workbench/store/manifest.ts";
 * const manifest = readManifest("lake/bars")!;
 * checkFolder("lake/bars", manifest, ["Ticker=AAPL/TradeDate=2023-11-21"]);
 * // ["File Ticker=AAPL/part-2023-11-20_2023-11-24.parquet of 'lake/bars' was damaged (its file is missing): removed; ..."]
 * ```
 */
export function checkFolder(dir: string, manifest: Manifest, wanted: readonly string[]): string[] {
  const chunked = dateInsideFiles(manifest) !== undefined;
  const inRange = new Set(wanted);
  const warnings: string[] = [];
  const damaged = new Map<string, { why: string }>();
  const damage = damageChecker(dir);
  for (const path of wanted.filter((p) => p in manifest.partitions)) {
    const record = manifest.partitions[path];
    const why = damage(path, record);
    if (why === undefined) continue;
    if (!chunked) {
      warnings.push(`Partition ${path || "(the one file)"} of '${dir}' was damaged (${why}): fetched again`);
      delete manifest.partitions[path];
      continue;
    }
    const file = partitionFile(path, record);
    if (!damaged.has(file)) damaged.set(file, { why });
  }
  for (const [file, { why }] of damaged) {
    const paths = Object.keys(manifest.partitions).filter((p) => manifest.partitions[p].rows > 0 && partitionFile(p, manifest.partitions[p]) === file);
    for (const p of paths) delete manifest.partitions[p];
    rmSync(join(dir, file), { force: true });
    const outside = paths.filter((p) => !inRange.has(p));
    const range = (ps: string[]) => (ps.length === 1 ? `partition ${ps[0]}` : `partitions ${ps[0]} to ${ps.at(-1)} (${ps.length})`);
    const inside = paths.filter((p) => inRange.has(p));
    warnings.push(`File ${file} of '${dir}' was damaged (${why}): removed; its ${range(inside)} fetched again${outside.length ? `; its ${range(outside)}, outside this range, left for a download of their range` : ""}`);
  }
  for (const file of unrecordedFiles(dir, manifest.partitions)) {
    rmSync(join(dir, file), { force: true });
    warnings.push(`File ${file} of '${dir}' was recorded by no partition (left by an interrupted download): removed`);
  }
  return warnings;
}
