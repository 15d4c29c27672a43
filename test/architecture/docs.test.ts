/**
 * The public API is documented: `deno doc --lint` finds nothing on workbench/mod.ts,
 * kernel-helpers/mod.ts and notebook.ts, and a planted undocumented export fails the same
 * lint. That their examples compile is checked in typeCheck.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PUBLIC_MODULES } from "../../scripts/exampleTypes.ts";
import { denoPath, repoRoot } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import process from "node:process";

const scratch = mkdtempSync(join(tmpdir(), "docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * `deno doc --lint` of some modules in one process: its exit status, the errors it names
 * (`kind: file:line: message`) and the count it reports (`Found N documentation lint errors`).
 */
async function docLint(modules: string[]): Promise<{ status: number | null; errors: string[]; found: number }> {
  const result = await run(denoPath(), ["doc", "--lint", ...modules], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: "1", RUST_BACKTRACE: "0" },
  });
  const errors = [...result.stderr.matchAll(/^error\[([\w-]+)\]: (.*)\n\s+--> (\S+)/gm)].map((m) =>
    `${m[1]}: ${m[3].replace(`${repoRoot}/`, "")}: ${m[2]}`
  );
  const found = Number(/Found (\d+) documentation lint errors?/.exec(result.stderr)?.[1] ?? 0);
  return { status: result.status, errors, found };
}

describe("the public API's docs", () => {
  // One lint of the public modules and a planted undocumented one together (a deno process
  // each cost several times one for all): the planted error must be the only one reported.
  const lint = (() => {
    const planted = join(scratch, "undocumented.ts");
    writeFileSync(planted, "/** Documented. */\nexport const a = 1;\nexport function b(): number {\n  return 2;\n}\n");
    return docLint([...PUBLIC_MODULES, planted]);
  })();
  const PLANTED = /^missing-jsdoc: .*undocumented\.ts:3:1: exported symbol is missing JSDoc/;

  it(`deno doc --lint of ${PUBLIC_MODULES.join(", ")} finds nothing`, async () => {
    const { errors, found } = await lint;
    expect(errors.filter((e) => !PLANTED.test(e))).toEqual([]);
    expect(found).toBe(1); // deno's own count: the planted error alone, parsed or not
  }, 120_000);

  it("an undocumented export fails the lint, named with its file and line", async () => {
    const { status, errors } = await lint;
    expect(status).not.toBe(0);
    expect(errors).toEqual([expect.stringMatching(PLANTED)]);
  }, 120_000);
});
