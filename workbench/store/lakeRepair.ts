/**
 * What a download does with the folder's files before it runs: a damaged or missing file loses
 * its partitions' records (so they are fetched again) and is removed, and so is a file that no
 * partition records, and the temporary files of writers that died. The folder is then what its
 * manifest says, and no row is on disk twice.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { damageChecker, filesUnder, unrecordedFiles } from "./lakeCheck.ts";
import { lakeFolder } from "./lakeFolder.ts";
import process from "node:process";
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
  const damage = damageChecker(dir, manifest);
  for (const path of wanted.filter((p) => p in manifest.partitions)) {
    const record = manifest.partitions[path];
    const why = damage(path, record);
    if (why === undefined) continue;
    if (!chunked) {
      warnings.push(`Partition ${path || "(the one file)"} of '${dir}' was damaged (${why}): fetched again`);
      const file = partitionFile(path, record);
      delete manifest.partitions[path];
      if (manifest.files) delete manifest.files[file];
      rmSync(join(dir, file), { force: true });
      continue;
    }
    const file = partitionFile(path, record);
    if (!damaged.has(file)) damaged.set(file, { why });
  }
  for (const [file, { why }] of damaged) {
    const paths = Object.keys(manifest.partitions).filter((p) =>
      manifest.partitions[p].rows > 0 && partitionFile(p, manifest.partitions[p]) === file
    );
    for (const p of paths) delete manifest.partitions[p];
    if (manifest.files) delete manifest.files[file];
    rmSync(join(dir, file), { force: true });
    const outside = paths.filter((p) => !inRange.has(p));
    const range = (ps: string[]) => (ps.length === 1 ? `partition ${ps[0]}` : `partitions ${ps[0]} to ${ps.at(-1)} (${ps.length})`);
    const inside = paths.filter((p) => inRange.has(p));
    warnings.push(
      `File ${file} of '${dir}' was damaged (${why}): removed; its ${range(inside)} fetched again${
        outside.length ? `; its ${range(outside)}, outside this range, left for a download of their range` : ""
      }`,
    );
  }
  for (const file of unrecordedFiles(dir, manifest.partitions)) {
    rmSync(join(dir, file), { force: true });
    if (manifest.files) delete manifest.files[file];
    warnings.push(`File ${file} of '${dir}' was recorded by no partition (left by an interrupted download): removed`);
  }
  if (manifest.files) {
    const named = new Set(Object.values(manifest.partitions).map((r) => r.file));
    for (const file of Object.keys(manifest.files)) if (!named.has(file)) delete manifest.files[file];
  }
  return warnings;
}

/**
 * Removes the temporary files of writes that never finished: those of the bookkeeping folder
 * (the caller holds the folder's lock, so no live download is writing them) and, inside the
 * table, the hidden `.<file>.<pid>.tmp` that formats 1 and 2 wrote beside each file, and their
 * `_download.lock`, when that process is gone. Returns the files removed, relative to the table or bookkeeping folder.
 *
 * @example
 * ```ts
 * removeDeadWrites("lake/bars"); // [".part-2023-11-20_2023-11-24.parquet.4242.tmp"]
 * ```
 */
export function removeDeadWrites(dir: string): string[] {
  const folder = lakeFolder(dir);
  const removed: string[] = [];
  for (const file of filesUnder(folder.tmp, () => true)) {
    rmSync(join(folder.tmp, file), { force: true });
    removed.push(file);
  }
  // The lock formats 1 and 2 kept inside the table, left by a download that died.
  const legacyLock = join(dir, "_download.lock");
  if (existsSync(legacyLock)) {
    const holder = Number(readFileSync(legacyLock, "utf8").trim());
    if (!(Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder))) {
      rmSync(legacyLock, { force: true });
      removed.push("_download.lock");
    }
  }
  for (const file of filesUnder(dir, (name) => /^\..+\.(\d+)\.tmp$/.test(name))) {
    const pid = Number(/\.(\d+)\.tmp$/.exec(file)![1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    rmSync(join(dir, file), { force: true });
    removed.push(file);
  }
  return removed;
}

/** Whether process `pid` is alive (signal 0 reaches it, or it belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}
