/**
 * The README says what the code says: its list of dataset functions is `wb.data`'s (one per
 * dataset the workbench knows) and its layers are `.dependency-cruiser.cjs`'s, both made by
 * scripts/readmeLists.ts; every module of the layered folders lies in a layer the README
 * names; bench/RESULTS.md stays a page of current figures (at most 200 lines).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { blockIn, datasetFunctions, layers, markers, readmeBlocks, withBlocks } from "../../scripts/readmeLists.ts";
import { repoRoot } from "../../scripts/paths.mjs";
import { DATA_ENDPOINTS } from "../../workbench/query/endpoints.ts";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

/** Every .ts file under a folder of the repository, as a path from its root. */
function modulesUnder(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))
    .map((p) => relative(repoRoot, join(repoRoot, folder, p)));
}

describe("the README's lists", () => {
  for (const { name, text } of readmeBlocks()) {
    it(`${name}: the README's list is the code's (else run scripts/readmeLists.ts --write)`, () => {
      const block = blockIn(readme, name);
      expect(block, `README.md lacks the markers ${markers(name).start} ... ${markers(name).end}`).toBeDefined();
      expect(block, `README.md's ${name} differ from the code's: run node_modules/.bin/deno run -A scripts/readmeLists.ts --write`).toBe(
        text,
      );
    });
  }

  it("a list that differs from the code fails, and --write puts the code's back", () => {
    const stale = readme.replace("- `wb.data.eqTaq1Min`", "- `wb.data.barsOfOldName`");
    expect(stale).not.toBe(readme);
    const [datasets] = readmeBlocks();
    expect(blockIn(stale, "dataset-functions")).not.toBe(datasets.text);
    expect(blockIn(withBlocks(stale, readmeBlocks()), "dataset-functions")).toBe(datasets.text);
  });

  it("every dataset the workbench knows has its function in the list, and each function calls one", () => {
    const functions = datasetFunctions();
    const called = functions.flatMap((f) => (f.dataset ? [f.dataset] : []));
    expect([...called].sort()).toEqual(Object.keys(DATA_ENDPOINTS).sort());
    expect(functions.filter((f) => !f.dataset).map((f) => f.name)).toEqual(["get"]);
    for (const f of functions) expect(f.summary, f.name).toMatch(/^\S.{2,80}$/);
  });

  it("every module of the layered folders lies in a layer (so the README's layers name it)", () => {
    const prefixes = layers().flat();
    const modules = ["workbench", "kernel-helpers", "contract", "calendar", "cli"].flatMap(modulesUnder).concat("notebook.ts");
    expect(modules.length).toBeGreaterThan(100);
    expect(modules.filter((m) => !prefixes.some((p) => m === p || (p.endsWith("/") && m.startsWith(p))))).toEqual([]);
  });
});

describe("bench/RESULTS.md", () => {
  it("holds the current figures in at most 200 lines (history goes to bench/history/)", () => {
    const lines = readFileSync(join(repoRoot, "bench/RESULTS.md"), "utf8").trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(200);
  });
});
