/**
 * The main job, end to end: `scripts/demo.ts` (what `npm run demo` runs after setup) generates
 * the demo market when it is missing, starts the sandbox, executes the three teaching notebooks
 * and the three recipes in the real Deno kernel, and writes executed notebooks and HTML reports.
 * Every notebook must be free of error output and show each figure it promises.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { denoPath } from "../../scripts/paths.mjs";
import process from "node:process";

const ROOT = process.cwd();
const OUT = join(ROOT, "out");
/** How long the whole demo may take, market generation included, on a busy machine. */
const DEMO_TIMEOUT_MS = 640_000;
/** Figures (SVGs with marks) each notebook promises. */
const PROMISED: Record<string, number> = {
  "notebooks/quickstart": 2,
  "notebooks/entitlements": 0,
  "notebooks/reproducible-research": 1,
  "recipes/intraday-spread": 6,
  "recipes/oi-term-structure": 5,
  "recipes/adjusted-contracts": 10,
};

interface Output {
  output_type: string;
  data?: Record<string, string | string[]>;
  name?: string;
  text?: string | string[];
}
const text = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("") : v ?? "");
/** An SVG drawn with at least one mark (path, line, rect or circle). */
const svgs = (markup: string) => (markup.match(/<svg[\s\S]*?<\/svg>/g) ?? []).filter((s) => /<(path|line|rect|circle)\b/.test(s));

describe("npm run demo executes every notebook and recipe in the Deno kernel", () => {
  const run = { status: null as number | null, stdout: "", stderr: "" };
  beforeAll(async () => {
    // Asynchronous, so the test worker stays responsive while the demo runs (a minute or two).
    // Killed short of the hook's own timeout: a demo that hangs fails the test with its output
    // so far, instead of outliving the run at full CPU.
    const child = spawn(denoPath(), ["run", "-A", "scripts/demo.ts"], {
      env: { ...process.env, NO_COLOR: "1" },
      timeout: DEMO_TIMEOUT_MS,
      killSignal: "SIGKILL",
    });
    child.stdout.on("data", (d) => (run.stdout += d));
    child.stderr.on("data", (d) => (run.stderr += d));
    run.status = await new Promise<number | null>((resolve) =>
      child.on("exit", (code, signal) => {
        if (signal) run.stderr += `\n(the demo was killed with ${signal}: the test allows it ${DEMO_TIMEOUT_MS / 1000} s)`;
        resolve(code);
      })
    );
  }, DEMO_TIMEOUT_MS + 20_000);

  it("exits 0 and names where the results are", () => {
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(String(run.stdout)).toContain("out/");
  });

  for (const [name, figures] of Object.entries(PROMISED)) {
    it(`writes ${name} executed, with no error output and ${figures} figure(s)`, () => {
      const path = join(OUT, `${name}.ipynb`);
      expect(existsSync(path), path).toBe(true);
      const cells = JSON.parse(readFileSync(path, "utf8")).cells as { cell_type: string; outputs?: Output[] }[];
      const outputs = cells.flatMap((c) => c.outputs ?? []);
      expect(outputs.filter((o) => o.output_type === "error")).toEqual([]);
      expect(outputs.filter((o) => o.output_type === "stream" && o.name === "stderr").map((o) => text(o.text))).toEqual([]);
      const found = outputs.flatMap((o) => svgs(text(o.data?.["text/html"]) + text(o.data?.["image/svg+xml"])));
      expect(found.length).toBeGreaterThanOrEqual(figures);
      expect(existsSync(join(OUT, `${name}.html`)), `${name}.html`).toBe(true);
    });
  }

  it("reproducible-research shows a verified re-run, a changed parameter caught, and no key in its manifest", () => {
    const cells = JSON.parse(readFileSync(join(OUT, "notebooks/reproducible-research.ipynb"), "utf8")).cells as { outputs?: Output[] }[];
    const printed = cells.flatMap((c) => c.outputs ?? []).map((o) => text(o.text) + text(o.data?.["text/plain"])).join("\n");
    expect(printed).toMatch(/call 1 eq-taq-1min: same \([\d,]+ rows, rows:[0-9a-f]{12}…\)/);
    expect(printed).toContain("differences: 0; the study's result frames are equal");
    expect(printed).toMatch(
      /call 1 eq-taq-1min: DIFFERENT: another call: .*TradeDate\.le=2023-11-22 then, TradeDate\.le=\d{4}-\d{2}-\d{2} now/,
    );
    expect(printed).toContain("the key in the manifest: absent");
    expect(printed).toContain("Cache verified: nothing stale");
    expect(printed).toMatch(/monthly requests\s+[\d,]+\s+[\d,]+\s+[\d,]+\s+[\d,]+/);
  });
});
