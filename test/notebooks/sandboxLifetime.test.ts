/**
 * A sandbox started from a notebook kernel stops when that kernel dies: a real kernel starts a
 * sandbox on the tiny market, is then killed with SIGKILL (no chance to clean up), and the
 * sandbox process must be gone within seconds.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { executeNotebook, makeNotebook, NotebookError } from "../../scripts/jupyter.mjs";

const repo = process.cwd();
const dir = mkdtempSync(join(tmpdir(), "sandbox-lifetime-"));
let sandboxPid: number | undefined;

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(() => {
  if (sandboxPid !== undefined && running(sandboxPid)) process.kill(sandboxPid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

it("a killed kernel leaves no sandbox process behind", async () => {
  const cells = [
    // args: [] makes a new sandbox even when one already runs for this checkout.
    `import { sandbox } from "${repo}/workbench/mod.ts";
const local = await sandbox({ profile: "tiny", dataDir: ${JSON.stringify(inject("tinyMarketDir"))}, args: [] });
const answer = await fetch(local.baseUrl + "/openapi.json");
console.log(JSON.stringify({ pid: local.pid, kernel: Deno.pid, status: answer.status }));
await answer.body?.cancel();`,
    `Deno.kill(Deno.pid, "SIGKILL");`,
  ];
  const input = join(dir, "kill-kernel.ipynb");
  writeFileSync(input, JSON.stringify(makeNotebook(cells)));
  const failure = await executeNotebook(input, join(dir, "out"), { timeoutSeconds: 120 }).then(() => undefined, (e: unknown) => e);
  expect(failure).toBeInstanceOf(NotebookError);
  expect((failure as Error).message).toMatch(/DeadKernel|died|dead/i);
  const printed = (failure as NotebookError & { notebook: { cells: { outputs: { text?: string[] }[] }[] } }).notebook.cells[0].outputs.map((o: { text?: string[] }) => (o.text ?? []).join("")).join("");
  const started = JSON.parse(printed.trim().split("\n").at(-1)!) as { pid: number; kernel: number; status: number };
  sandboxPid = started.pid;
  expect(started.status).toBe(200); // the sandbox answered while the kernel lived
  expect(running(started.kernel)).toBe(false);
  const deadline = Date.now() + 10_000;
  while (running(started.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(running(started.pid)).toBe(false);
});
