/**
 * `npm run lab` in a real browser: JupyterLab started by scripts/lab.mjs, a notebook opened in
 * Debian's Chromium (driven by playwright-core), a cell run, the page reloaded, and a second cell
 * that reads the first cell's variable run in the same kernel. Then, in that notebook, against a
 * sandbox that answers slowly: the stop button ends a long pull within 2 s, its bar ending
 * "interrupted" and the kernel's variables intact; Tab completes `wb.`, `wb.data.` and a frame;
 * Shift+Tab shows a data function's JSDoc. Screenshots go to out/lab-test/.
 * Under the same server (one Jupyter start for all), the project's Deno kernelspec keeps
 * answering when clients connect again (a page reload) and when a second client connects (a
 * second tab) and leaves: without scripts/jupyter-kernel/relay.py the Deno kernel leaves a new
 * client's requests unanswered, usually within the first cycles (docs/jupyter-kernel-reload.md).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNotebook } from "../../scripts/jupyter.mjs";
import { labVenv, outDir, repoRoot } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import { fileBrowser } from "./support/chromium.ts";
import { freePort, labUnavailable } from "./support/jupyterServer.ts";
import process from "node:process";

const unavailable = await labUnavailable();
if (unavailable) console.warn(`Skipping the JupyterLab browser test: JupyterLab cannot be installed.\n${unavailable}`);

/** Reconnect cycles of kernelReconnect.py: a kernel without the relay fails within the first few. */
const CYCLES = 15;

/**
 * Starts `node scripts/lab.mjs` serving `root`; resolves with the URL it prints and its output
 * so far (`--debug`: the server's nudges of the kernel, named when the reconnect test fails).
 */
function startLab(root: string, port: number): Promise<{ url: string; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, [
    join(repoRoot, "scripts", "lab.mjs"),
    "--no-setup",
    `--port=${port}`,
    "--ServerApp.port_retries=0",
    `--ServerApp.root_dir=${root}`,
    "--debug",
  ], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lab.mjs printed no URL in 90 s:\n${output.slice(-3000)}`)), 90_000);
    child.stderr!.setEncoding("utf8").on("data", (c) => (output += c));
    child.stdout!.setEncoding("utf8").on("data", (c) => {
      output += c;
      const url = output.match(/http:\/\/127\.0\.0\.1:\d+\/lab\?token=\w+/);
      if (url) {
        clearTimeout(timer);
        resolve({ url: url[0], child, log: () => output });
      }
    });
    child.on("exit", (code) => reject(new Error(`lab.mjs exited (${code}):\n${output.slice(-3000)}`)));
  });
}

/**
 * Runs cell `index` (0-based) with Shift+Enter once the status bar shows the Deno kernel idle
 * (keys pressed earlier can be lost while the notebook connects), and returns its output text.
 */
async function runCell(page: Page, index: number): Promise<string> {
  await page.getByText("Deno | Idle").waitFor({ timeout: 90_000 });
  const cell = page.locator(".jp-Notebook .jp-Cell").nth(index);
  await cell.locator(".cm-content").click();
  await page.keyboard.press("Shift+Enter");
  const output = cell.locator(".jp-OutputArea-output");
  await output.first().waitFor({ timeout: 90_000 });
  return (await output.first().innerText()).trim();
}

/**
 * Types `text` at the end of cell `index`, presses Tab and returns the completer's items, then
 * closes it. A Tab the editor did not get (focus moving under a busy page) is pressed once more.
 */
async function completions(page: Page, index: number, text: string): Promise<string[]> {
  const editor = page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".cm-content");
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
  await expect.poll(() => editor.innerText(), { timeout: 10_000 }).toContain(text);
  const items = page.locator(".jp-Completer:not(.lm-mod-hidden) .jp-Completer-item .jp-Completer-match");
  for (let attempt = 0;; attempt++) {
    await page.keyboard.press("Tab");
    try {
      await items.first().waitFor({ timeout: 15_000 });
      break;
    } catch (error) {
      if (attempt > 0) {
        await page.screenshot({ path: join(outDir, "lab-test", `completion-failed-${index}.png`) });
        throw error;
      }
    }
  }
  const labels = await items.allInnerTexts();
  await page.keyboard.press("Escape");
  return labels;
}

/** The notebook: the reload test's two cells, then a connection to the sandbox, a long pull, a check of the variables, and two empty cells to type in. */
const cells = (baseUrl: string) => [
  "const answer = 6 * 7;\nanswer",
  "answer + 1",
  `import { connect, progressBar } from "${repoRoot}/notebook.ts";
const wb = await connect({ baseUrl: "${baseUrl}", apiKey: "demo-full-access" });
const daily = await wb.data.eqDailyOhlc(["AAPL", "MSFT"], { start: "2023-11-20", end: "2023-11-22" });
daily.height`,
  'const bars = await wb.data.eqTaq1Min(["AAPL", "MSFT", "SPY", "JPM"], { start: "2023-11-20", end: "2023-11-24", pageSize: 100, onProgress: progressBar() });',
  "answer * 100 + daily.height",
  "",
  "",
];

describe.skipIf(unavailable)("JupyterLab from npm run lab, in Chromium", () => {
  // Inside the repo, so that the kernel's working directory finds deno.json as in notebooks/.
  mkdirSync(outDir, { recursive: true });
  const root = mkdtempSync(join(outDir, "lab-test-"));
  const shots = join(outDir, "lab-test");
  let lab: ChildProcess | undefined;
  const browser = fileBrowser();
  let page: Page;
  let base: string;
  let labLog: () => string;
  // Every answer 200 ms late, as from a distant service: a pull of small pages runs for seconds.
  let sb: TestSandbox | undefined;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const [sandbox, started] = await Promise.all([
      startSandbox({ args: ["--latency", "200"] }),
      freePort().then((port) => startLab(root, port)),
    ]);
    sb = sandbox;
    writeFileSync(join(root, "reload.ipynb"), JSON.stringify(makeNotebook(cells(sb.baseUrl))));
    lab = started.child;
    base = started.url;
    labLog = started.log;
    page = await browser.page(1280, 800);
  }, 180_000);
  afterAll(async () => {
    await browser.close();
    // Waited for, so that the server and its kernels are gone when the next file starts.
    const stopLab = async () => {
      if (!lab || lab.exitCode !== null || lab.signalCode !== null) return;
      const exited = new Promise((resolve) => lab!.once("exit", resolve));
      lab.kill("SIGTERM");
      const force = setTimeout(() => lab?.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(force);
    };
    await Promise.all([stopLab(), sb?.stop()]);
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it("runs a cell, survives a page reload, and runs the next cell in the same kernel", async () => {
    page.on("pageerror", (error) => console.warn(`page error: ${error.message}`));
    const notebookUrl = base.replace("/lab?", "/lab/tree/reload.ipynb?");
    await page.goto(notebookUrl);
    await page.locator(".jp-Notebook .jp-Cell").first().waitFor({ timeout: 90_000 });
    expect(await runCell(page, 0)).toBe("42");
    await page.screenshot({ path: join(shots, "1-before-reload.png") });

    await page.reload();
    await page.locator(".jp-Notebook .jp-Cell").first().waitFor({ timeout: 90_000 });
    expect(await runCell(page, 1)).toBe("43");
    await page.screenshot({ path: join(shots, "2-after-reload.png") });
  }, 300_000);

  it("the stop button ends a long pull within 2 s, its bar 'interrupted', and keeps the kernel's variables", async () => {
    expect(await runCell(page, 2)).toBe("6");
    const pull = page.locator(".jp-Notebook .jp-Cell").nth(3);
    await pull.locator(".cm-content").click();
    await page.keyboard.press("Shift+Enter");
    // Once the bar counts rows, the pull is under way: stop it.
    await pull.locator(".wb-progress").getByText(/: (\d+%, )?[1-9][\d,]* (of [\d,]+ )?rows/).waitFor({ timeout: 90_000 });
    const pressed = performance.now();
    await page.locator('.jp-NotebookPanel-toolbar [data-command="notebook:interrupt-kernel"]').click();
    const error = pull.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
    await error.waitFor({ timeout: 30_000 });
    const seconds = (performance.now() - pressed) / 1000;
    console.log(`stop button to the cell's error: ${seconds.toFixed(2)} s`);
    expect(await error.innerText()).toMatch(
      /InterruptedError: Interrupted: eq-taq-1min fetched [\d,]+ rows \((of about [\d,]+|the total not yet known); \d of 4 tickers complete\)\./,
    );
    expect(seconds).toBeLessThanOrEqual(2);
    await expect.poll(() => pull.locator(".wb-progress").innerText(), { timeout: 10_000 }).toMatch(/, interrupted after \d+ s$/);
    expect(await pull.locator(".wb-progress-interrupted").count()).toBe(1);
    await page.screenshot({ path: join(shots, "3-interrupted.png") });
    expect(await runCell(page, 4)).toBe("4206");
  }, 300_000);

  it("Tab completes wb., wb.data. and a frame; Shift+Tab shows a data function's JSDoc", async () => {
    expect(await completions(page, 5, "wb.")).toEqual([
      "account",
      "meta",
      "data",
      "cache",
      "recording",
      "provenance",
      "summary",
      "entitlements",
      "estimate",
      "download",
      "scan",
    ]);
    // Still in the cell: `wb.` + `data.`
    expect(await completions(page, 5, "data.")).toEqual([
      "eqTaq1Min",
      "eqDailyOhlc",
      "eqTaq",
      "optGreeksDaily",
      "optOpenInterest",
      "optSecMaster",
      "occEqSpecSettl",
      "eqLookupFiles",
      "get",
    ]);
    await page.keyboard.type("eqDailyOhlc(");
    await page.keyboard.press("Shift+Tab");
    const tooltip = page.locator(".jp-Tooltip");
    // The tooltip shows at once and renders its Markdown a moment later.
    await expect.poll(() => tooltip.innerText(), { timeout: 30_000 }).toMatch(
      /^DataApi\.eqDailyOhlc\(tickers\?: Symbols \| SymbolQuery, query\?: SymbolQuery\):\s*Promise<DataFrame>\s+Daily OHLC bars \(GET \/api\/v1\/data\/us-equity\/eq-daily-ohlc\), of every ticker or of those given\.\s+Example\s+const odfl = await wb\.data\.eqDailyOhlc\("ODFL"/,
    );
    await page.screenshot({ path: join(shots, "4-shift-tab.png") });
    await page.keyboard.press("Escape");
    const frame = await completions(page, 6, "daily.");
    expect(frame.slice(0, 5)).toEqual(["dtypes", "height", "shape", "width", "columns"]);
    expect(frame).toEqual(expect.arrayContaining(["filter", "select", "withColumns", "groupBy", "getColumn"]));
  }, 120_000);

  it(`the Deno kernel answers every cell over ${CYCLES} cycles of connect, second connection, disconnect`, async () => {
    const { origin, searchParams } = new URL(base);
    const result = await run(join(labVenv, "bin", "python"), [
      join(import.meta.dirname, "support", "kernelReconnect.py"),
      origin,
      searchParams.get("token")!,
      String(CYCLES),
    ], { timeoutMs: 100_000 });
    const lines = result.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const failed = lines.find((line) => line.error);
    const nudges = labLog().split("\n").filter((line) => /Nudge: attempt (10|20)\b|finish_nudge|Shell error/.test(line));
    expect(failed, `${JSON.stringify(failed)}\n${nudges.join("\n")}\n${result.stderr.slice(-2000)}`).toBeUndefined();
    expect(lines.map((line) => line.outputs)).toEqual(
      Array.from({ length: CYCLES }, (_, i) => [String(i * 2), String(i * 3), String(i * 5)]),
    );
  }, 120_000);
});
