/**
 * The order test files are handed to vitest's workers: longest first (after any that failed
 * last time), so the two workers finish together instead of one running the demo's notebooks
 * alone at the end. A file's length is vitest's own record of its last run when the checkout
 * has one (node_modules/.vite), else the committed record in durations.json (a fresh clone,
 * CI), else a small default for a new file. vitest's own order without a record is by file
 * size, which put the long notebook files, short to read, last.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Seconds a file took in a recorded full run, by path from the repository root. */
const RECORDED: Record<string, number> = JSON.parse(readFileSync(new URL("./durations.json", import.meta.url), "utf8")).seconds;

/** A file no run has recorded yet is most likely a small one. */
const NEW_FILE_SECONDS = 2;

export default class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification) => {
      const path = relative(root, spec.moduleId);
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      if (last?.failed) return Number.POSITIVE_INFINITY;
      return last !== undefined ? last.duration / 1000 : RECORDED[path] ?? NEW_FILE_SECONDS;
    };
    return Promise.resolve([...files].sort((a, b) => expected(b) - expected(a)));
  }
}
