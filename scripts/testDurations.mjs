// Writes test/durations.json, the record test/sequencer.ts orders a fresh clone's test files by,
// from vitest's own record of the last runs in this checkout (node_modules/.vite/vitest). Run it
// after a full `npm test` when files were added or their lengths changed much:
//   node scripts/testDurations.mjs
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./paths.mjs";
import process from "node:process";

const cacheDir = join(repoRoot, "node_modules", ".vite", "vitest");
const records = existsSync(cacheDir) ? readdirSync(cacheDir).map((d) => join(cacheDir, d, "results.json")).filter(existsSync) : [];
if (records.length === 0) {
  console.error(`No vitest record under ${cacheDir}: run \`npm test\` once first`);
  process.exit(1);
}
const seconds = {};
for (const record of records) {
  for (const [key, result] of JSON.parse(readFileSync(record, "utf8")).results) {
    const path = key.slice(key.indexOf(":") + 1);
    // Files since removed or renamed stay in vitest's record; only today's files are kept.
    if (existsSync(join(repoRoot, path)) && result.duration !== undefined) seconds[path] = Math.round(result.duration / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([, a], [, b]) => b - a));
const out = join(repoRoot, "test", "durations.json");
writeFileSync(
  out,
  `${
    JSON.stringify(
      { note: "Seconds per test file in a full run; written by scripts/testDurations.mjs, read by test/sequencer.ts", seconds: sorted },
      null,
      1,
    )
  }\n`,
);
console.log(`${out}: ${Object.keys(sorted).length} files`);
