/**
 * The notebook runner for real (scripts/recipe.ts: `npm run recipe`, `npm run notebook`): the
 * tiny fixture recipe run with injected parameters in the Deno kernel against a sandbox on the
 * run's tiny market, its HTML report opened in headless Chromium, its provenance manifest
 * (`<name>.provenance.json` and the report's footer), `--verify <manifest>` on the same market
 * and on a market generated with another seed (where the recipe's own `sandbox()` call meets the
 * runner's sandbox on that market), a failing run, one's own notebook run with
 * `npm run notebook`, and the runner's refusals.
 * A real run costs a runner, a Python, a kernel and the workbench loaded in it, so one run
 * serves every check of its kind: the parameter run also makes a download (a --verify run then
 * checks a call and a download), and the failing run is checked for its report and its
 * manifest; the --verify run on another market is also the run whose notebook asks `sandbox()`
 * for its service there. The runs on the test market share one sandbox (`--base-url`); the run on
 * another market starts its own (`--data`). compareRuns itself is tested in provenance.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cellText, errorOutputs, makeNotebook } from "../../scripts/jupyter.mjs";
import { denoPath, jupyterEnv, jupyterPath } from "../../scripts/paths.mjs";
import { svgWithMarks } from "../../scripts/report.ts";
import { run } from "../../scripts/run.mjs";
import type { CallRecord, RunManifest } from "../../workbench/mod.ts";
import { fileBrowser } from "./support/chromium.ts";
import { fileSandbox } from "./support/fileSandbox.ts";
import { decodePng } from "./support/png.ts";
import process from "node:process";

const FIXTURE = "test/scripts/fixtures/tiny-recipe.ipynb";
/** A test that runs the notebook waits as long as the run may take (its own timeout, 180 s) and a little more. */
const RUN_TEST_MS = 200_000;

/** The runner as `npm run recipe` (or, with `command`, `npm run notebook`) runs it. */
function recipe(args: string[], command = "recipe") {
  return run(denoPath(), ["run", "-A", "scripts/recipe.ts", ...args], {
    timeoutMs: 180_000,
    env: { ...process.env, npm_lifecycle_event: command },
  });
}
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

const tinyMarket = fileSandbox();
/** `--base-url` of the file's sandbox on the run's tiny market, started by the first run that needs it. */
async function onTinyMarket(): Promise<string[]> {
  return ["--base-url", await tinyMarket.baseUrl()];
}
afterAll(() => tinyMarket.stop());
const browser = fileBrowser();
afterAll(() => browser.close());

const dir = mkdtempSync(join(tmpdir(), "recipe-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a run with parameters: its notebook, report and provenance manifest", () => {
  const out = join(dir, "first");
  const lake = join(dir, "lake");
  let result: Awaited<ReturnType<typeof recipe>>;
  // deno-lint-ignore no-explicit-any
  let notebook: any;
  let manifest: RunManifest;

  beforeAll(async () => {
    // One run makes a call and a download, so one --verify run checks both.
    result = await recipe([
      FIXTURE,
      "--param",
      "ticker=MSFT",
      "--param",
      "days=3",
      "--param",
      `lake=${lake}`,
      ...(await onTinyMarket()),
      "--out",
      out,
    ], "notebook");
    notebook = readJson(join(out, "tiny-recipe.ipynb"));
    manifest = readJson(join(out, "tiny-recipe.provenance.json"));
  }, RUN_TEST_MS);

  it("executes without error and says where the notebook, its report and its manifest are", () => {
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`with ticker=MSFT days=3 lake=${lake}`);
    expect(result.stdout).toMatch(/tiny-recipe\.ipynb +\d+\.\d s +1 figure +ok/);
    expect(result.stdout).toContain(`executed notebook: ${join(out, "tiny-recipe.ipynb")}`);
    expect(result.stdout).toContain(`HTML report:       ${join(out, "tiny-recipe.html")}`);
    expect(result.stdout).toContain(`provenance:        ${join(out, "tiny-recipe.provenance.json")}`);
    expect(errorOutputs(notebook)).toEqual([]);
  });

  it("runs with the injected values in place of the defaults", () => {
    const injected = notebook.cells.findIndex((c: { metadata: { tags?: string[] } }) => c.metadata.tags?.includes("injected-parameters"));
    expect(notebook.cells[injected - 1].metadata.tags).toEqual(["parameters"]);
    expect(cellText(notebook.cells[injected])).toBe("");
    const fetched = notebook.cells.find((c: { id: string }) => c.id === "fetch");
    expect(cellText(fetched)).toMatch(/^MSFT: 3 days\n/);
    expect(notebook.metadata.workbench.parameters).toEqual({ ticker: "MSFT", days: 3, lake });
  });

  it("writes the very report `jupyter nbconvert --to html` makes of the executed notebook (markdown, chart, provenance footer)", async () => {
    const converted = join(out, "converted");
    const result = await run(jupyterPath()!, ["nbconvert", "--to", "html", "--output-dir", converted, join(out, "tiny-recipe.ipynb")], {
      env: jupyterEnv(),
      timeoutMs: 120_000,
    });
    expect(result.status, result.stderr).toBe(0);
    const report = readFileSync(join(out, "tiny-recipe.html"), "utf8");
    const reference = readFileSync(join(converted, "tiny-recipe.html"), "utf8");
    expect(report).toContain("Provenance");
    // Half a megabyte each: name the first difference rather than print both.
    let at = 0;
    while (at < report.length && report[at] === reference[at]) at++;
    const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 80), at + 80));
    expect(
      report.length === reference.length && at === report.length,
      `first difference at character ${at}: ${around(report)} vs nbconvert's ${around(reference)}`,
    ).toBe(true);
  });

  it("writes an HTML report that Chromium shows with its chart, offline", async () => {
    const page = await browser.open(join(out, "tiny-recipe.html"), 1200, 2000);
    const [png, dom] = [await page.screenshot(), await page.content()];
    // Read: the page's renderer need not stay up, idle, for the rest of the file's runs.
    await page.close();

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

  it("with the run's parameters, versions, commit and time, and each call's frame hash", () => {
    expect(manifest.parameters).toEqual({ ticker: "MSFT", days: "3", lake });
    expect(manifest.notebook).toBe(FIXTURE);
    expect(manifest.versions.deno).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.versions.nodejsPolars).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.workbench.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Date.now() - Date.parse(manifest.ranAt)).toBeLessThan(10 * 60_000);
    expect(manifest.calls).toHaveLength(1);
    const call = manifest.calls[0] as CallRecord & { service: string };
    expect(call).toMatchObject({ seq: 1, dataset: "eq-daily-ohlc", rows: 3, pages: 1, query: { filters: { Ticker: "MSFT" }, maxRows: 3 } });
    expect(call.frameHash).toMatch(/^rows:[0-9a-f]{64}$/);
    expect(manifest.hash).toEqual({ scheme: "rows/1", nodejsPolars: manifest.versions.nodejsPolars });
    expect(manifest.outcome).toBe("completed");
    expect(call.requestIds).toHaveLength(1);
    expect(call.status.last_available_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(manifest.services).toEqual([call.service]);
  });

  it("with each downloaded partition of the range, its rows and hash", () => {
    const [d] = manifest.downloads!;
    expect(manifest.downloads).toHaveLength(1);
    expect(d).toMatchObject({ dataset: "eq-taq-1min", dir: lake, reused: 0, reusedPartitions: [] });
    expect(d.fetched.map((p) => p.path)).toEqual(["Ticker=MSFT/TradeDate=2023-11-20", "Ticker=MSFT/TradeDate=2023-11-21"]);
    for (const p of d.fetched) expect(p.frameHash).toMatch(/^rows:[0-9a-f]{64}$/);
    expect(d.rows).toBe(d.fetched[0].rows + d.fetched[1].rows);
  });

  it("never holds the key; the collecting cell is gone and the report shows the footer", () => {
    const text = readFileSync(join(out, "tiny-recipe.provenance.json"), "utf8");
    expect(text).not.toContain("demo-full-access");
    const executed = readJson(join(out, "tiny-recipe.ipynb"));
    expect(JSON.stringify(executed)).not.toContain("vnd.market-workbench.provenance");
    const html = readFileSync(join(out, "tiny-recipe.html"), "utf8");
    expect(html).toContain("Provenance");
    expect(html).toContain(manifest.calls[0].frameHash.slice(0, 23));
    expect(html).toContain("eq-daily-ohlc");
  });

  it("--verify on the same market: every call the same, exit 0, the manifest left as it was", async () => {
    const path = join(out, "tiny-recipe.provenance.json");
    const before = readFileSync(path, "utf8");
    const result = await recipe([FIXTURE, ...(await onTinyMarket()), "--out", out, "--verify", path], "notebook");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`with ticker=MSFT days=3 lake=${lake}`);
    expect(result.stdout).toMatch(/verify: call 1 eq-daily-ohlc: same \(3 rows, rows:/);
    expect(result.stdout).toContain("verify: identical: 1 call and 1 download gave the same frames");
    expect(readFileSync(path, "utf8")).toBe(before);
    const rerun: RunManifest = readJson(join(out, "tiny-recipe.rerun.provenance.json"));
    expect(rerun.calls[0].frameHash).toBe(manifest.calls[0].frameHash);
    // The download reused the partitions, hashing their files read back.
    expect(rerun.downloads![0]).toMatchObject({ fetched: [], reused: 2, reusedPartitions: manifest.downloads![0].fetched, requestIds: [] });
    const rows = manifest.downloads![0].rows.toLocaleString("en-US");
    expect(result.stdout).toContain(
      `verify: download 1 eq-taq-1min: same (2 partitions, ${rows} rows; fetched then, reused from the folder now)`,
    );
  }, RUN_TEST_MS);

  it("--verify against a market generated with another seed (the folder gone): the call and the partitions DIFFERENT, exit 1", async () => {
    rmSync(lake, { recursive: true, force: true });
    const path = join(out, "tiny-recipe.provenance.json");
    const other = join(dir, "other");
    const result = await recipe([
      FIXTURE,
      "--profile",
      "tiny",
      "--data",
      inject("otherMarketDir"),
      "--out",
      other,
      "--verify",
      path,
    ], "notebook");
    expect(result.status).toBe(1);
    // The notebook itself ran without error: the exit status is the verdict's. Its own sandbox()
    // call met the runner's sandbox on that market, not the demo one (whose days are others).
    expect(result.stderr).toBe("");
    const executed = readJson(join(other, "tiny-recipe.ipynb"));
    expect(errorOutputs(executed)).toEqual([]);
    expect(cellText(executed.cells.find((c: { id: string }) => c.id === "connect"))).toBe(
      "same as MARKETDATA_BASE_URL: true\neq-daily-ohlc from 2023-11-20 to 2023-11-28\n",
    );
    expect(result.stdout).toMatch(
      /verify: call 1 eq-daily-ohlc: DIFFERENT: 3 rows both times, other values, first differing at row \d \(rows:/,
    );
    expect(result.stdout).toMatch(
      /verify: download 1 eq-taq-1min: DIFFERENT: 2 of 2 partitions differ \(Ticker=MSFT\/TradeDate=2023-11-20, Ticker=MSFT\/TradeDate=2023-11-21\), [\d,]+ rows then, [\d,]+ rows now \(fetched then, fetched now\); first differing: Ticker=MSFT\/TradeDate=2023-11-20: [\d,]+ rows (both times, other values|then, [\d,]+ rows now) \(rows:[0-9a-f]{12}… then, rows:[0-9a-f]{12}… now\)/,
    );
    expect(result.stdout).toContain(`verify: 2 of 2 differ (1 call and 1 download) from ${path}`);
  }, RUN_TEST_MS);
});

describe("a run whose cell fails", () => {
  const out = join(dir, "failed");
  let result: Awaited<ReturnType<typeof recipe>>;
  // deno-lint-ignore no-explicit-any
  let notebook: any;
  beforeAll(async () => {
    result = await recipe([FIXTURE, "--param", "ticker=ZZZZ", ...(await onTinyMarket()), "--out", out], "notebook");
    notebook = readJson(join(out, "tiny-recipe.ipynb"));
  }, RUN_TEST_MS);

  it("exits 1 with the cell's error and still writes the notebook, executed up to that cell, and its report", () => {
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/tiny-recipe\.ipynb +\d+\.\d s +0 figures +FAILED: UnknownTickerError: .*ZZZZ/);
    expect(result.stderr).toContain("ZZZZ");
    expect(result.stdout).toContain(`executed notebook: ${join(out, "tiny-recipe.ipynb")}`);
    const fetched = notebook.cells.find((c: { id: string }) => c.id === "fetch");
    expect(errorOutputs(notebook).map((e: { ename: string }) => e.ename)).toEqual(["UnknownTickerError"]);
    expect(fetched.outputs.at(-1).output_type).toBe("error");
    // The chart cell after it never ran.
    expect(
      notebook.cells.filter((c: { cell_type: string; execution_count: number | null }) => c.cell_type === "code").at(-1).execution_count,
    ).toBeNull();
    const html = readFileSync(join(out, "tiny-recipe.html"), "utf8");
    expect(html).toContain("UnknownTickerError");
    expect(html).toContain("This run failed");
  });

  it("still leaves a manifest, marked failed with the failing cell and the failed call, without the key", () => {
    const path = join(out, "tiny-recipe.provenance.json");
    expect(result.stdout).toContain(`provenance:        ${path}`);
    const m: RunManifest = readJson(path);
    expect(m.outcome).toBe("failed");
    expect(m.parameters).toEqual({ ticker: "ZZZZ" });
    expect(m.failedCell?.error).toMatch(/UnknownTickerError/);
    expect(m.failedCell?.index).toBeGreaterThan(1);
    const daily = m.calls.find((c) => c.dataset === "eq-daily-ohlc")!;
    expect(daily.error).toMatchObject({ name: "UnknownTickerError" });
    expect(daily.requests[0].params).toContainEqual(["Ticker", "ZZZZ"]);
    expect(readFileSync(path, "utf8")).not.toContain("demo-full-access");
  });
});

describe("npm run notebook on one's own notebook", () => {
  it("executes any notebook and writes it and its report into --out", async () => {
    const plain = join(dir, "plain.ipynb");
    writeFileSync(plain, JSON.stringify(makeNotebook(["1 + 1", "const n: number = 40;\nconsole.log(n + 2)"])));
    const out = join(dir, "mine");
    const result = await recipe([plain, ...(await onTinyMarket()), "--out", out], "notebook");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^notebook: running .*plain\.ipynb with its defaults/);
    expect(result.stdout).toContain(`executed notebook: ${join(out, "plain.ipynb")}`);
    const executed = readJson(join(out, "plain.ipynb"));
    expect(executed.cells.map(cellText)).toEqual(["2", "42\n"]);
    expect(existsSync(join(out, "plain.html"))).toBe(true);
  }, RUN_TEST_MS);

  it("names itself in its usage line", async () => {
    const result = await recipe([], "notebook");
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/^usage: npm run notebook -- <path\.ipynb> \[--param key=value\]\.\.\. \[--out <dir>\]/);
  });
});

describe("the recipe runner's refusals", () => {
  it("names an unknown recipe and lists the known ones", async () => {
    const result = await recipe(["no-such-recipe"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^recipe: Unknown recipe 'no-such-recipe'; the recipes are: /);
  });

  it("names an unknown parameter and the declared ones, before starting anything", async () => {
    const result = await recipe([FIXTURE, "--param", "tickr=MSFT"]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      "recipe: Unknown parameter 'tickr' for recipe tiny-recipe; its parameters cell declares: ticker, days, color, lake",
    );
    expect(result.stdout).toBe("");
  });

  it("refuses --base-url with a market of its own, and one where no sandbox answers", async () => {
    const both = await recipe([FIXTURE, "--base-url", "http://127.0.0.1:1", "--data", inject("tinyMarketDir")]);
    expect(both.status).toBe(2);
    expect(both.stderr.trim()).toBe(
      "recipe: --base-url uses the sandbox running there, on its own market: give no --profile or --data with it",
    );
    const none = await recipe([FIXTURE, "--base-url", "http://127.0.0.1:1"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("recipe: no sandbox answers at 'http://127.0.0.1:1'");
  });

  it("refuses a value of the wrong type", async () => {
    const result = await recipe([FIXTURE, "--param", "days=many"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Parameter 'days' expects a number (its default is 4); got 'many'");
  });

  it("--verify takes no --param, and refuses what is not a manifest", async () => {
    const withParam = await recipe([FIXTURE, "--verify", join(dir, "any.provenance.json"), "--param", "days=2"], "notebook");
    expect(withParam.status).toBe(2);
    expect(withParam.stderr).toContain("--verify takes its parameters from the manifest");
    const notOne = await recipe([FIXTURE, "--verify", FIXTURE], "notebook");
    expect(notOne.status).toBe(2);
    expect(notOne.stderr).toContain("is not a provenance manifest");
  });
});
