/**
 * The kernel helpers in the real Deno kernel: a generated notebook fetches minute bars from a
 * sandbox on the test market with a live progress bar, shows the frame through
 * `installDisplay` and draws an intraday profile; the executed notebook's outputs are checked.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { errorOutputs, executeNotebook, makeNotebook } from "../../scripts/jupyter.mjs";
import { type RunningSandbox, startNativeSandbox } from "./support/sandbox.ts";

interface Output {
  output_type: string;
  data?: Record<string, string | string[]>;
  text?: string | string[];
}
interface Sent {
  type: string;
  id: string;
  text: string;
}

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("") : v ?? "");
const repo = process.cwd();
let sb: RunningSandbox | undefined;
let dir: string;
let outputs: Output[][];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kernel-helpers-"));
  sb = await startNativeSandbox(inject("tinyMarketDir"), join(dir, "state.sqlite"));
  const cells = [
    `import pl from "nodejs-polars";
import { connect } from "${repo}/workbench/mod.ts";
import { installDisplay, intradayProfileChart, progressBar } from "${repo}/kernel-helpers/mod.ts";
installDisplay();`,
    // Records what reaches the kernel's display (the message type Deno derives from \`update\`).
    `const sent: { type: string; id?: string; text: string }[] = [];
const display = Deno.jupyter.display;
Deno.jupyter.display = (obj: any, options: any = {}) => {
  sent.push({ type: options.update ? "update_display_data" : "display_data", id: options.display_id, text: obj["text/plain"] });
  return display.call(Deno.jupyter, obj, options);
};
const wb = await connect({ baseUrl: "${sb.baseUrl}", apiKey: "demo-full-access" });
const bars = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" }, pageSize: 200, onProgress: progressBar() });
undefined; // the cell's value: none`,
    `Deno.jupyter.display = display;
console.log(JSON.stringify(sent));`,
    `bars.select("TradeDate", "BarDateTime", "Ticker", "CloseBidPrice", "CloseAskPrice")`,
    `const spread = bars.withColumns(pl.col("CloseAskPrice").minus(pl.col("CloseBidPrice")).div(pl.col("CloseAskPrice").plus(pl.col("CloseBidPrice")).div(2)).mul(1e4).alias("SpreadBps"));
intradayProfileChart(spread, { minute: "BarDateTime", y: "SpreadBps", title: "AAPL quoted spread, 2023-11-21", yLabel: "spread (bps)" })`,
    `({ plain: "object" })`,
  ];
  const input = join(dir, "kernel-helpers.ipynb");
  writeFileSync(input, JSON.stringify(makeNotebook(cells)));
  const { notebook } = await executeNotebook(input, join(dir, "out"), { timeoutSeconds: 60 });
  expect(errorOutputs(notebook)).toEqual([]);
  outputs = notebook.cells.map((cell: { outputs: Output[] }) => cell.outputs);
});
afterAll(async () => {
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it("a frame as a cell's value renders as HTML with dtypes, New York times and dates as text", () => {
  expect(outputs[3]).toHaveLength(1);
  const [result] = outputs[3];
  expect(result.output_type).toBe("execute_result");
  expect(Object.keys(result.data!).sort()).toEqual(["text/html", "text/plain"]); // not Polars' own bundle
  const doc = new JSDOM(joined(result.data!["text/html"])).window.document;
  expect(doc.querySelector(".wb-shape")!.textContent).toMatch(/^9\d\d rows × 5 columns$/);
  expect([...doc.querySelectorAll(".wb-dtype")].map((s) => s.textContent)).toEqual(["Date", "Datetime(ns,America/New_York)", "String", "Float64", "Float64"]);
  const first = [...doc.querySelector("tbody tr")!.children].map((td) => td.textContent);
  expect(first.slice(0, 3)).toEqual(["2023-11-21", "2023-11-21 04:00:00.000000000 EST", "AAPL"]);
  expect(doc.querySelector(".wb-note")!.textContent).toMatch(/^showing the first 10 and last 10 of 9\d\d rows$/);
  expect(joined(result.data!["text/html"])).not.toContain("{}");
  expect(joined(result.data!["text/plain"])).toContain("2023-11-21 04:00:00.000000000 EST");
});

it("the progress bar is one display output, updated in place with the same display_id until done", () => {
  const sent = JSON.parse(joined(outputs[2][0].text)) as Sent[];
  expect(sent.length).toBeGreaterThanOrEqual(6); // five pages of 200 bars, then done
  expect(sent[0].type).toBe("display_data");
  expect(sent.slice(1).every((s) => s.type === "update_display_data")).toBe(true);
  expect(new Set(sent.map((s) => s.id))).toEqual(new Set([sent[0].id]));
  expect(sent[0].id).toMatch(/^wb-progress-/);
  expect(sent[0].text).toMatch(/^eq-taq-1min: 200 rows, 1 pages, /);
  expect(sent.at(-1)!.text).toMatch(/^eq-taq-1min: 9\d\d rows, \d pages, .*, done$/);
  // nbclient applies each update_display_data to the output with that display_id: one output, the final state.
  expect(outputs[1]).toHaveLength(1);
  expect(outputs[1][0].output_type).toBe("display_data");
  expect(joined(outputs[1][0].data!["text/plain"])).toBe(sent.at(-1)!.text);
  expect(joined(outputs[1][0].data!["text/html"])).toContain("width:100%;height:100%;background:#31a354");
});

it("a chart cell outputs an SVG with its marks on a New York time axis, titled in its HTML", () => {
  const [result] = outputs[4];
  const svg = joined(result.data!["image/svg+xml"]);
  const doc = new JSDOM(svg, { contentType: "image/svg+xml" }).window.document;
  expect(doc.documentElement.getAttribute("xmlns")).toBe("http://www.w3.org/2000/svg");
  const [line] = [...doc.querySelectorAll('g[aria-label="line"] path')];
  expect(line.getAttribute("d")!.split("L").length).toBeGreaterThan(900);
  expect(doc.querySelectorAll('g[aria-label="rect"] rect')).toHaveLength(1);
  expect([...doc.querySelectorAll('g[aria-label="x-axis tick label"] text')].map((t) => t.textContent)).toContain("09:30");
  expect(joined(result.data!["text/html"])).toContain("AAPL quoted spread, 2023-11-21</div>");
});

it("other values keep the kernel's own display", () => {
  expect(joined(outputs[5][0].data!["text/plain"])).toBe('{ plain: "object" }');
});
