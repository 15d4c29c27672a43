/**
 * Completion on `wb.data.` in a real Deno kernel, asked over the Jupyter protocol
 * (`complete_request`, from Python's jupyter_client) after a cell that connects to the
 * sandbox: the dataset functions first, then `get`, and nothing else (no constructor, no
 * internals, no Object.prototype members such as `__defineGetter__`).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { jupyterEnv, jupyterPython } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import { connect, DataApi, type Workbench } from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";

// A spawned sandbox, over real HTTP: the kernel is another process.
const local = {} as { sb: TestSandbox; wb: Workbench };
beforeAll(async () => {
  local.sb = await startSandbox();
  local.wb = await connect({ baseUrl: local.sb.baseUrl, apiKey: "demo-full-access" });
});
afterAll(async () => await local.sb?.stop());
const dir = mkdtempSync(join(tmpdir(), "completion-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the project's `deno` kernel, runs one cell, then prints each completion reply as one JSON line. */
const DRIVER = `
import json, sys
from jupyter_client.manager import KernelManager
repo, cell, *asks = sys.argv[1:]
km = KernelManager(kernel_name="deno")
km.start_kernel(cwd=repo)
kc = km.client(); kc.start_channels(); kc.wait_for_ready(timeout=120)
try:
    msg_id = kc.execute(cell)
    while True:
        m = kc.get_iopub_msg(timeout=120)
        if m["parent_header"].get("msg_id") != msg_id: continue
        if m["msg_type"] == "error": print(json.dumps({"error": m["content"]["evalue"]}))
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle": break
    for code in asks:
        ask = kc.complete(code, len(code))
        while True:
            reply = kc.get_shell_msg(timeout=60)
            if reply["parent_header"].get("msg_id") == ask: break
        print(json.dumps({"code": code, **reply["content"]}))
finally:
    kc.stop_channels(); km.shutdown_kernel(now=True)
`;

it("lists the dataset functions first, then get, and nothing else", async () => {
  const driver = join(dir, "complete.py");
  writeFileSync(driver, DRIVER);
  const repo = process.cwd();
  const cell = `import { connect } from "${repo}/workbench/mod.ts";\nconst wb = await connect({ baseUrl: "${local.sb.baseUrl}", apiKey: "demo-full-access" });`;
  const result = await run(jupyterPython()!, [driver, repo, cell, "wb.data.", "wb.data.eq", "`${wb.data}`; wb.data.o"], { env: jupyterEnv(), timeoutMs: 180_000 });
  const replies = result.stdout.trim().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  expect(replies.filter((r) => r.error), result.stderr.slice(-2000)).toEqual([]);
  const [all, eq, o] = replies;
  expect(all.matches).toEqual(["eqTaq1Min", "eqDailyOhlc", "eqTaq", "optGreeksDaily", "optOpenInterest", "optSecMaster", "occEqSpecSettl", "eqLookupFiles", "get"]);
  expect(all.cursor_start).toBe("wb.data.".length);
  expect(eq.matches).toEqual(["eqTaq1Min", "eqDailyOhlc", "eqTaq", "eqLookupFiles"]);
  expect(o.matches).toEqual(["optGreeksDaily", "optOpenInterest", "optSecMaster", "occEqSpecSettl"]);
}, 240_000);

it("wb.data without Object.prototype still converts to text and is a DataApi", () => {
  expect(`${local.wb.data}`).toBe("wb.data");
  expect(String(local.wb.data)).toBe("wb.data");
  expect(local.wb.data instanceof DataApi).toBe(true);
});
