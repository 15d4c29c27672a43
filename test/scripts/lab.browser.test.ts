/**
 * `npm run lab` in a real browser: JupyterLab started by scripts/lab.mjs, a notebook opened in
 * Debian's Chromium (driven by playwright-core), a cell run, the page reloaded, and a second cell
 * that reads the first cell's variable run in the same kernel. Screenshots go to out/lab-test/.
 * Under the same server (one Jupyter start for both), the project's Deno kernelspec keeps
 * answering when clients connect again (a page reload) and when a second client connects (a
 * second tab) and leaves: without scripts/jupyter-kernel/relay.py the Deno kernel leaves a new
 * client's requests unanswered, usually within the first cycles (docs/jupyter-kernel-reload.md).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNotebook } from "../../scripts/jupyter.mjs";
import { labVenv, outDir, repoRoot } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import { fileBrowser } from "./support/chromium.ts";
import { freePort, labUnavailable } from "./support/jupyterServer.ts";

const unavailable = await labUnavailable();
if (unavailable) console.warn(`Skipping the JupyterLab browser test: JupyterLab cannot be installed.\n${unavailable}`);

/** Reconnect cycles of kernelReconnect.py: a kernel without the relay fails within the first few. */
const CYCLES = 15;

/**
 * Starts `node scripts/lab.mjs` serving `root`; resolves with the URL it prints and its output
 * so far (`--debug`: the server's nudges of the kernel, named when the reconnect test fails).
 */
function startLab(root: string, port: number): Promise<{ url: string; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, [join(repoRoot, "scripts", "lab.mjs"), "--no-setup", `--port=${port}`,
    "--ServerApp.port_retries=0", `--ServerApp.root_dir=${root}`, "--debug"], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
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

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    writeFileSync(join(root, "reload.ipynb"), JSON.stringify(makeNotebook(["const answer = 6 * 7;\nanswer", "answer + 1"])));
    const started = await startLab(root, await freePort());
    lab = started.child;
    base = started.url;
    labLog = started.log;
    page = await browser.page(1280, 800);
  }, 180_000);
  afterAll(async () => {
    await browser.close();
    // Waited for, so that the server and its kernels are gone when the next file starts.
    if (lab && lab.exitCode === null && lab.signalCode === null) {
      const exited = new Promise((resolve) => lab!.once("exit", resolve));
      lab.kill("SIGTERM");
      const force = setTimeout(() => lab?.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(force);
    }
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

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

  it(`the Deno kernel answers every cell over ${CYCLES} cycles of connect, second connection, disconnect`, async () => {
    const { origin, searchParams } = new URL(base);
    const result = await run(join(labVenv, "bin", "python"),
      [join(import.meta.dirname, "support", "kernelReconnect.py"), origin, searchParams.get("token")!, String(CYCLES)],
      { timeoutMs: 100_000 });
    const lines = result.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const failed = lines.find((line) => line.error);
    const nudges = labLog().split("\n").filter((line) => /Nudge: attempt (10|20)\b|finish_nudge|Shell error/.test(line));
    expect(failed, `${JSON.stringify(failed)}\n${nudges.join("\n")}\n${result.stderr.slice(-2000)}`).toBeUndefined();
    expect(lines.map((line) => line.outputs)).toEqual(
      Array.from({ length: CYCLES }, (_, i) => [String(i * 2), String(i * 3), String(i * 5)]));
  }, 120_000);
});
