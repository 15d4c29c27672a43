/**
 * The workbench works in Deno too: a Deno process connects to the sandbox, fetches a frame
 * over several pages and reports its shape and dtypes; the frame it wrote equals the one
 * Node fetches and the market's own file.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { connect } from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import { expectSameFrame } from "./support/frames.ts";
import { marketFrame } from "./support/market.ts";
import { denoPath } from "../../scripts/paths.mjs";
import process from "node:process";

let sb: TestSandbox;
let scratch: string;

beforeAll(async () => {
  sb = await startSandbox();
  scratch = mkdtempSync(join(tmpdir(), "wb-deno-"));
});
afterAll(async () => {
  await sb?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function runDeno(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      denoPath(),
      ["run", "-A", "test/workbench/support/denoFrame.ts", ...args],
      { env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`deno exited with ${error.code}:\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

it("a Deno process fetches a typed frame from the sandbox, equal to Node's fetch and to the market file", async () => {
  const out = join(scratch, "deno.parquet");
  const report = JSON.parse((await runDeno(sb.baseUrl, out)).trim().split("\n").at(-1)!);
  const wb = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-full-access" });
  const node = await wb.data.eqTaq("2023-11-21", "JPM.PRC", { pageSize: 500 });

  expect(report.runtime).toMatch(/^deno \d+\.\d+/);
  expect(node.height).toBeGreaterThan(1000); // several pages of 500
  expect(report.requests).toBeGreaterThanOrEqual(2 + Math.ceil(node.height / 500));
  expect({ height: report.height, width: report.width }).toEqual({ height: node.height, width: 9 });
  expect(report.columns).toEqual([
    "TradeDate",
    "EventDateTime",
    "EventType",
    "Ticker",
    "ASID",
    "Price",
    "Quantity",
    "Exchange",
    "ConditionCode",
  ]);
  expect(report.dtypes).toEqual([
    "DataType(Date)",
    "DataType(Datetime(ns,America/New_York))",
    "DataType(String)",
    "DataType(String)",
    "DataType(Int64)",
    "DataType(Float64)",
    "DataType(Int64)",
    "DataType(String)",
    "DataType(String)",
  ]);
  const fromDeno = pl.readParquet(out);
  expectSameFrame(fromDeno, node);
  expectSameFrame(fromDeno, marketFrame(inject("tinyMarketDir"), "eq-taq", "TradeDate=2023-11-21/Ticker=JPM.PRC.parquet"));
});
