/**
 * A download killed midway (kill -9 of a Deno process downloading over real HTTP from a spawned
 * sandbox) resumes at partition granularity and equals a clean download. The rest of
 * `wb.download`: download.test.ts.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Workbench } from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import { expectSameFrame } from "./support/frames.ts";
import { journalPartitions } from "./support/lakeBooks.ts";
import { denoPath } from "../../scripts/paths.mjs";
import process from "node:process";

const sortRows = (f: pl.DataFrame) => f.sort(["Ticker", "BarDateTime"]);

let sb: TestSandbox;
let scratch: string;
let full: Workbench;

beforeAll(async () => {
  sb = await startSandbox();
  scratch = mkdtempSync(join(tmpdir(), "wb-lake-killed-"));
  full = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-full-access" });
});
afterAll(async () => {
  await sb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("an interrupted download", () => {
  it("killed midway, resumes at partition granularity and equals a clean download", async () => {
    const query = {
      // Four tickers over six days: 24 partitions, so the kill after 6 still leaves most to resume.
      tickers: ["SPY", "AAPL", "OXY.WS", "ODFL"],
      start: "2023-11-20",
      end: "2023-11-28",
      pageSize: 240,
      concurrency: 1,
    };
    const dir = join(scratch, "killed");
    // The Deno binary itself: node_modules/.bin/deno is a Node launcher, and killing it would leave
    // the real download running on, writing partitions while the test resumes into the same folder.
    const child = spawn(denoPath(), ["run", "-A", "test/workbench/support/lakeDownload.ts", sb.baseUrl, dir, JSON.stringify(query), "1"], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stderr = "", exited = false;
    child.stderr!.on("data", (d) => (stderr += d));
    child.once("exit", () => (exited = true));
    // Partitions recorded so far: the journal's lines (the manifest itself is written at the end).
    const recorded = () => journalPartitions(dir).length;
    while (recorded() < 6 && !exited) await new Promise((r) => setTimeout(r, 50));
    expect(exited, `the download ended before it was killed: ${stderr}`).toBe(false);
    child.kill("SIGKILL");
    while (!exited) await new Promise((r) => setTimeout(r, 50));
    const before = recorded();
    expect(before).toBeGreaterThanOrEqual(6);
    expect(before).toBeLessThan(24);

    const resumed = await full.download("eq-taq-1min", query, dir, { chunkDays: 1 });
    expect(resumed).toMatchObject({ partitions: 24, fetched: 24 - before, resumed: true });
    const clean = join(scratch, "clean");
    await full.download("eq-taq-1min", { ...query, pageSize: undefined }, clean);
    expectSameFrame(sortRows(full.scan(dir).collectSync()), sortRows(full.scan(clean).collectSync()));
  }, 300_000);
});
