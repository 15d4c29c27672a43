/**
 * The house's layers (.dependency-cruiser.cjs): no import runs up a layer or in a circle, the
 * workbench never imports the sandbox or the kernel helpers, and the kernel helpers reach the
 * workbench only through workbench/mod.ts. A planted upward import, a cycle and a reach into
 * the workbench's internals in a scratch tree must each fail the same rules.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import process from "node:process";

const root = join(import.meta.dirname, "..", "..");
const depcruise = join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Cruises `paths` in `cwd` with the project's rules; the violations found. */
async function cruise(cwd: string, paths: string[]): Promise<Violation[]> {
  const run = promisify(execFile);
  const config = join(root, ".dependency-cruiser.cjs");
  const { stdout } = await run(process.execPath, [depcruise, "--config", config, "--output-type", "json", ...paths], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  })
    .catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }));
  return (JSON.parse(stdout).summary.violations as Violation[]);
}

const scratch = mkdtempSync(join(tmpdir(), "layers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A scratch tree of files (path: text), with the project's rules. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, "tree-"));
  cpSync(join(root, ".dependency-cruiser.cjs"), join(dir, ".dependency-cruiser.cjs"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("the layers of the house", () => {
  it("every import of the project points down its layers, with no cycle", async () => {
    const violations = await cruise(root, ["calendar", "contract", "workbench", "kernel-helpers", "sandbox", "notebook.ts", "cli"]);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  }, 180_000);

  it(
    "a planted upward import, a cycle, a loop between folders, a reach into workbench internals and a sandbox import each fail",
    async () => {
      const dir = tree({
        "workbench/http/transport.ts": 'import { DataApi } from "../api/data.ts";\nexport const t = DataApi;\n',
        "workbench/api/data.ts": "export class DataApi {}\n",
        "workbench/query/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
        "workbench/query/b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
        "kernel-helpers/charts/x.ts": 'import { DataApi } from "../../workbench/api/data.ts";\nexport const x = DataApi;\n',
        "workbench/frames/y.ts": 'import { s } from "../../sandbox/service/app.ts";\nexport const y = s;\n',
        "sandbox/service/app.ts": "export const s = 1;\n",
        // display/ -> charts/ and charts/ -> display/ through different modules: no module is in a cycle.
        "kernel-helpers/display/bundle.ts": 'import { svg } from "../charts/svg.ts";\nexport const bundle = svg;\n',
        "kernel-helpers/charts/svg.ts": "export const svg = 1;\n",
        "kernel-helpers/charts/table.ts": 'import { html } from "../display/html.ts";\nexport const table = html;\n',
        "kernel-helpers/display/html.ts": "export const html = 1;\n",
      });
      const violations = await cruise(dir, ["workbench", "kernel-helpers", "sandbox"]);
      const names = new Set(violations.map((v) => v.rule.name));
      expect(names).toContain("layer-3-imports-up");
      expect(names).toContain("no-circular");
      expect(names).toContain("kernel-helpers-through-mod");
      expect(names).toContain("workbench-not-sandbox");
      expect(violations.filter((v) => v.rule.name === "no-folder-cycle").map((v) => `${v.from} -> ${v.to}`).sort())
        .toEqual(["kernel-helpers/charts -> kernel-helpers/display", "kernel-helpers/display -> kernel-helpers/charts"]);
      expect(violations.filter((v) => v.rule.name === "no-circular").map((v) => v.from).sort()).toEqual(["workbench/query/a.ts"]);
    },
    180_000,
  );
});
