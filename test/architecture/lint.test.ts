/**
 * The formatter and the linters pass on the repository (scripts/denoLint.ts, settings in deno.json):
 * - `deno fmt --check` would change no file;
 * - `deno lint` (recommended rules) finds nothing;
 * - `deno doc --lint` finds nothing on every module a user may import (workbench/, kernel-helpers/,
 *   contract/, calendar/, cli/, sandbox/launcher/, notebook.ts), not only on the entry points.
 * Planted faults show that each check reads its tool's findings.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { docLint, docLintModules, fmtCheck, lint } from "../../scripts/denoLint.ts";

const scratch = mkdtempSync(join(tmpdir(), "lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A finding as one line, for a failure that reads like the tool's report. */
const line = (f: { rule: string; where: string; message: string }): string => `${f.rule} ${f.where}: ${f.message}`;

describe("deno fmt", () => {
  it("would change no file of the repository", async () => {
    const files = await fmtCheck();
    // The first ones are enough to tell what is wrong; `deno fmt` fixes them all.
    expect(files.slice(0, 20).map((f) => f.where), `${files.length} files are not formatted: run \`deno fmt\``).toEqual([]);
  }, 300_000);

  it("names a file it would change", async () => {
    const planted = join(scratch, "unformatted.ts");
    writeFileSync(planted, "export const a = {b:1}\n");
    expect((await fmtCheck([planted])).map((f) => f.where)).toEqual([expect.stringMatching(/unformatted\.ts$/)]);
  }, 60_000);
});

describe("deno lint", () => {
  it("finds nothing in the repository", async () => {
    expect((await lint()).map(line)).toEqual([]);
  }, 120_000);

  it("names the rule, the file and the line of a finding", async () => {
    const planted = join(scratch, "letNeverChanged.ts");
    writeFileSync(planted, "/** Planted. */\nexport function f(): number {\n  let n = 1;\n  return n;\n}\n");
    expect((await lint([planted])).map(line)).toEqual([expect.stringMatching(/^prefer-const .*letNeverChanged\.ts:3: /)]);
  }, 60_000);
});

describe("deno doc --lint", () => {
  it("finds nothing on any module a user may import", async () => {
    const modules = docLintModules();
    // Not only the entry points: modules deep in each folder are among them.
    expect(modules).toEqual(
      expect.arrayContaining([
        "notebook.ts",
        "workbench/research/spreads.ts",
        "kernel-helpers/editor/docIndex.ts",
        "contract/data.ts",
        "sandbox/launcher/mod.ts",
      ]),
    );
    expect((await docLint(modules)).map(line)).toEqual([]);
  }, 300_000);
});
