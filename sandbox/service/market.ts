/** Loads a generated market for serving: its manifest and the index of its files. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DATASETS } from "../market/catalog.ts";
import type { Manifest } from "../market/manifest.ts";
import type { Market } from "./context.ts";
import { indexDatasetFiles } from "./query/marketFiles.ts";

export function loadMarket(dir: string): Market {
  const manifestPath = join(dir, "manifest.json");
  if (!existsSync(manifestPath)) throw new Error(`No market at '${dir}': manifest.json is missing (generate one with npm run market)`);
  const manifest: Manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const datasets = DATASETS.filter((d) => existsSync(join(dir, d.textId)));
  return {
    dir,
    manifest,
    updatedAt: statSync(manifestPath).mtime.toISOString(),
    files: new Map(datasets.map((d) => [d.textId, indexDatasetFiles(dir, d)])),
    datasets,
  };
}
