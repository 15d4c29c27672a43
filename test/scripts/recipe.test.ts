/**
 * `npm run recipe` for real: a tiny fixture recipe run with injected parameters in the Deno
 * kernel against a sandbox on the run's tiny market, its HTML report opened in headless
 * Chromium, and the runner's refusals of unknown recipes and parameters. The fixture's runs
 * share one sandbox (`--base-url`); the run that checks the runner's own sandbox starts it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cellText, errorOutputs } from "../../scripts/jupyter.mjs";
import { denoPath, jupyterEnv, jupyterPath } from "../../scripts/paths.mjs";
import { svgWithMarks } from "../../scripts/report.ts";
import { run } from "../../scripts/run.mjs";
import { dumpDom, screenshot } from "./support/chromium.ts";
import { fileSandbox } from "./support/fileSandbox.ts";
import { decodePng } from "./support/png.ts";

const FIXTURE = "test/scripts/fixtures/tiny-recipe.ipynb";

function recipe(...args: string[]) {
  return run(denoPath(), ["run", "-A", "scripts/recipe.ts", ...args], { timeoutMs: 180_000 });
}

const tinyMarket = fileSandbox();
/** `--base-url` of the file's sandbox on the run's tiny market, started by the first run that needs it. */
async function onTinyMarket(): Promise<string[]> {
  return ["--base-url", await tinyMarket.baseUrl()];
}
afterAll(() => tinyMarket.stop());

describe("a recipe run with parameters", () => {
  const out = mkdtempSync(join(tmpdir(), "recipe-test-"));
  let result: Awaited<ReturnType<typeof recipe>>;
  // deno-lint-ignore no-explicit-any
  let notebook: any;

  beforeAll(async () => {
    result = await recipe(FIXTURE, "--param", "ticker=MSFT", "--param", "days=3", ...(await onTinyMarket()), "--out", out);
    notebook = JSON.parse(readFileSync(join(out, "tiny-recipe.ipynb"), "utf8"));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("executes without error and says where the notebook and its report are", () => {
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("with ticker=MSFT days=3");
    expect(result.stdout).toMatch(/tiny-recipe\.ipynb +\d+\.\d s +1 figure +ok/);
    expect(result.stdout).toContain(`executed notebook: ${join(out, "tiny-recipe.ipynb")}`);
    expect(result.stdout).toContain(`HTML report:       ${join(out, "tiny-recipe.html")}`);
    expect(errorOutputs(notebook)).toEqual([]);
  });

  it("runs with the injected values in place of the defaults", () => {
    const injected = notebook.cells.findIndex((c: { metadata: { tags?: string[] } }) => c.metadata.tags?.includes("injected-parameters"));
    expect(notebook.cells[injected - 1].metadata.tags).toEqual(["parameters"]);
    expect(cellText(notebook.cells[injected])).toBe("");
    const fetched = notebook.cells.find((c: { id: string }) => c.id === "fetch");
    expect(cellText(fetched)).toMatch(/^MSFT: 3 days\n/);
    expect(notebook.metadata.workbench.parameters).toEqual({ ticker: "MSFT", days: 3 });
  });

  it("writes the very report `jupyter nbconvert --to html` makes of the executed notebook (markdown, chart, provenance footer)", async () => {
    const converted = join(out, "converted");
    const result = await run(jupyterPath()!, ["nbconvert", "--to", "html", "--output-dir", converted, join(out, "tiny-recipe.ipynb")], { env: jupyterEnv(), timeoutMs: 120_000 });
    expect(result.status, result.stderr).toBe(0);
    const report = readFileSync(join(out, "tiny-recipe.html"), "utf8");
    const reference = readFileSync(join(converted, "tiny-recipe.html"), "utf8");
    expect(report).toContain("Provenance");
    // Half a megabyte each: name the first difference rather than print both.
    let at = 0;
    while (at < report.length && report[at] === reference[at]) at++;
    const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 80), at + 80));
    expect(report.length === reference.length && at === report.length, `first difference at character ${at}: ${around(report)} vs nbconvert's ${around(reference)}`).toBe(true);
  });

  it("writes an HTML report that Chromium shows with its chart, offline", async () => {
    const html = join(out, "tiny-recipe.html");
    const [png, dom] = await Promise.all([screenshot(html), dumpDom(html)]);

    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([1200, 2000]);
    // The fixture draws its bars in darkorange (255, 140, 0), a colour nothing else on the page uses.
    let orange = 0;
    const colours = new Set<number>();
    for (let i = 0; i < image.pixels.length; i += 4) {
      const [r, g, b] = image.pixels.subarray(i, i + 3);
      colours.add((r << 16) | (g << 8) | b);
      if (Math.abs(r - 255) + Math.abs(g - 140) + Math.abs(b) < 30) orange++;
    }
    expect(colours.size).toBeGreaterThan(50);
    expect(orange).toBeGreaterThan(50_000);
    expect(svgWithMarks(dom)).toBe(true);
    expect(dom.match(/<g[^>]*aria-label="bar"[^>]*>(\s*<rect\b[^>]*>(<\/rect>)?)+/)?.[0].match(/<rect\b/g)).toHaveLength(3);
    expect(dom).toContain("MSFT daily closes");
  });
});

describe("a recipe whose cell fails", () => {
  const out = mkdtempSync(join(tmpdir(), "recipe-fail-test-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("exits 1 with the cell's error and still writes the notebook, executed up to that cell, and its report", async () => {
    const result = await recipe(FIXTURE, "--param", "days=-1", ...(await onTinyMarket()), "--out", out);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/tiny-recipe\.ipynb +\d+\.\d s +0 figures +FAILED: QueryError: maxRows/);
    expect(result.stderr).toContain("maxRows");
    expect(result.stdout).toContain(`executed notebook: ${join(out, "tiny-recipe.ipynb")}`);
    const notebook = JSON.parse(readFileSync(join(out, "tiny-recipe.ipynb"), "utf8"));
    const fetched = notebook.cells.find((c: { id: string }) => c.id === "fetch");
    expect(errorOutputs(notebook).map((e: { ename: string }) => e.ename)).toEqual(["QueryError"]);
    expect(fetched.outputs.at(-1).output_type).toBe("error");
    // The chart cell after it never ran.
    expect(notebook.cells.filter((c: { cell_type: string; execution_count: number | null }) => c.cell_type === "code").at(-1).execution_count).toBeNull();
    expect(readFileSync(join(out, "tiny-recipe.html"), "utf8")).toContain("QueryError");
  });
});

describe("a recipe that asks sandbox() for its service, run on another market", () => {
  const out = mkdtempSync(join(tmpdir(), "recipe-sandbox-test-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("meets the runner's sandbox on that market, not the demo one", async () => {
    const result = await recipe("test/scripts/fixtures/sandbox-recipe.ipynb", "--profile", "tiny", "--data", inject("tinyMarketDir"), "--out", out);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const notebook = JSON.parse(readFileSync(join(out, "sandbox-recipe.ipynb"), "utf8"));
    const text = (id: string) => cellText(notebook.cells.find((c: { id: string }) => c.id === id)).trim();
    expect(text("connect")).toBe("same as MARKETDATA_BASE_URL: true");
    expect(text("range")).toBe("eq-daily-ohlc from 2023-11-20 to 2023-11-28");
  });
});

describe("the recipe runner's refusals", () => {
  it("names an unknown recipe and lists the known ones", async () => {
    const result = await recipe("no-such-recipe");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^recipe: Unknown recipe 'no-such-recipe'; the recipes are: /);
  });

  it("names an unknown parameter and the declared ones, before starting anything", async () => {
    const result = await recipe(FIXTURE, "--param", "tickr=MSFT");
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe("recipe: Unknown parameter 'tickr' for recipe tiny-recipe; its parameters cell declares: ticker, days, color, lake");
    expect(result.stdout).toBe("");
  });

  it("refuses --base-url with a market of its own, and one where no sandbox answers", async () => {
    const both = await recipe(FIXTURE, "--base-url", "http://127.0.0.1:1", "--data", inject("tinyMarketDir"));
    expect(both.status).toBe(2);
    expect(both.stderr.trim()).toBe("recipe: --base-url uses the sandbox running there, on its own market: give no --profile or --data with it");
    const none = await recipe(FIXTURE, "--base-url", "http://127.0.0.1:1");
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("recipe: no sandbox answers at 'http://127.0.0.1:1'");
  });

  it("refuses a value of the wrong type", async () => {
    const result = await recipe(FIXTURE, "--param", "days=many");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Parameter 'days' expects a number (its default is 4); got 'many'");
  });
});
