/**
 * Nothing unused (knip.jsonc): no file that no entry point reaches, no export nothing imports
 * (an export used only in its own file is unused) and no dependency nothing loads. A planted
 * unused export, orphan file and dependency in a scratch tree must each fail the same config.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import process from "node:process";

const knip = join(repoRoot, "node_modules", "knip", "bin", "knip.js");

interface FileIssues {
  file: string;
  [kind: string]: string | { name: string }[];
}

/** knip's findings in `cwd` as `kind: file: name` lines (empty when it passes), and its exit status. */
async function unused(cwd: string, args: string[] = []): Promise<{ status: number | null; found: string[]; stderr: string }> {
  const result = await run(process.execPath, [knip, "--reporter", "json", "--no-progress", ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
  });
  const report = JSON.parse(result.stdout || '{"issues":[]}') as { issues: FileIssues[] };
  const found = report.issues.flatMap((f) =>
    Object.entries(f).flatMap(([kind, items]) => (Array.isArray(items) ? items.map((i) => `${kind}: ${f.file}: ${i.name}`) : []))
  );
  return { status: result.status, found: found.sort(), stderr: result.stderr };
}

const scratch = mkdtempSync(join(tmpdir(), "unused-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("nothing unused", () => {
  it("knip finds no unused file, export or dependency in the project", async () => {
    // Its cache (under .cache/, keyed by each file's content) makes a run after the first a few times cheaper.
    const { status, found, stderr } = await unused(repoRoot, ["--cache", "--cache-location", join(repoRoot, ".cache", "knip")]);
    expect(found).toEqual([]);
    expect(status, stderr).toBe(0);
  }, 120_000);

  it("a planted unused export, orphan file and unused dependency each fail the project's config", async () => {
    const files: Record<string, string> = {
      "package.json": JSON.stringify({ name: "planted", private: true, type: "module", dependencies: { "left-pad": "1.3.0" } }),
      "workbench/mod.ts": 'export { used } from "./query/a.ts";\n',
      "workbench/query/a.ts": "export const used = 1;\nexport const plantedUnused = 2;\n",
      "workbench/query/orphan.ts": "export const orphan = 1;\n",
    };
    cpSync(join(repoRoot, "knip.jsonc"), join(scratch, "knip.jsonc"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    const { status, found } = await unused(scratch);
    expect(found).toEqual([
      "dependencies: package.json: left-pad",
      "exports: workbench/query/a.ts: plantedUnused",
      "files: workbench/query/orphan.ts: workbench/query/orphan.ts",
    ]);
    expect(status).not.toBe(0);
  }, 120_000);
});
