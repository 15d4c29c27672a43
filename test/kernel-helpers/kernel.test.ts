/**
 * The kernel helpers in the real Deno kernel: a generated notebook starts a sandbox on the test
 * market from the kernel (`sandbox()`), fetches minute bars from it with a live progress bar,
 * shows the frame through `installDisplay` and draws an intraday profile; the executed
 * notebook's outputs are checked. Its last cell kills the kernel with SIGKILL (no chance to
 * clean up), and the sandbox the kernel started must then be gone within seconds. One kernel
 * and one sandbox for both: each start costs a Python, a kernel and the workbench loaded in it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { errorOutputs, executeNotebook, makeNotebook, NotebookError } from "../../scripts/jupyter.mjs";
import process from "node:process";

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
let dir: string;
let outputs: Output[][];
/** What the notebook's second-last cell printed: the sandbox's and the kernel's process ids, and the sandbox's answer. */
let started: { pid: number; kernel: number; status: number } | undefined;
/** How execution ended: the kernel's death, by its last cell. */
let failure: unknown;

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kernel-helpers-"));
  const cells = [
    // A frame made before the workbench is imported, as a user would in a first cell.
    `import pl from "nodejs-polars";
const early = pl.DataFrame({ price: [190.64, 4512.2575], ticker: ["AAPL", "MSFT"] });`,
    // Importing the workbench alone installs rich display: no installDisplay() call anywhere.
    `import { connect } from "${repo}/workbench/mod.ts";
import { sandbox } from "${repo}/sandbox/launcher/mod.ts";
import { intradayProfileChart, progressBar } from "${repo}/kernel-helpers/mod.ts";`,
    // Records what reaches the kernel's display (the message type Deno derives from \`update\`).
    `// A sandbox of the kernel's own: extra args make a new one, with its own state and one worker.
const local = await sandbox({ profile: "tiny", dataDir: ${JSON.stringify(inject("tinyMarketDir"))}, args: ["--state", ${
      JSON.stringify(join(dir, "state.sqlite"))
    }, "--workers", "1"] });
const sent: { type: string; id?: string; text: string }[] = [];
const display = Deno.jupyter.display;
Deno.jupyter.display = (obj: any, options: any = {}) => {
  sent.push({ type: options.update ? "update_display_data" : "display_data", id: options.display_id, text: obj["text/plain"] });
  return display.call(Deno.jupyter, obj, options);
};
const wb = await connect({ baseUrl: local.baseUrl, apiKey: "demo-full-access" });
const bars = await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-11-21" }, pageSize: 200, onProgress: progressBar() });
undefined; // the cell's value: none`,
    `Deno.jupyter.display = display;
console.log(JSON.stringify(sent));`,
    `bars.select("TradeDate", "BarDateTime", "Ticker", "CloseBidPrice", "CloseAskPrice")`,
    `const spread = bars.withColumns(pl.col("CloseAskPrice").minus(pl.col("CloseBidPrice")).div(pl.col("CloseAskPrice").plus(pl.col("CloseBidPrice")).div(2)).mul(1e4).alias("SpreadBps"));
intradayProfileChart(spread, { minute: "BarDateTime", y: "SpreadBps", title: "AAPL quoted spread, 2023-11-21", yLabel: "spread (bps)" })`,
    `({ plain: "object" })`,
    `early`,
    `bars.getColumn("CloseBidPrice")`,
    `bars.lazy().filter(pl.col("CloseBidPrice").gt(0)).select("BarDateTime", "CloseBidPrice")`,
    `await wb.estimate("eq-taq-1min", { filters: { TradeDate: "2023-11-21" } }, ["AAPL"])`,
    `await wb.meta.status("eq-taq-1min")`,
    `await wb.entitlements()`,
    `await wb.download("eq-daily-ohlc", { start: "2023-11-20", end: "2023-11-28" }, "${dir}/daily")`,
    `await wb.data.eqTaq1Min("AAPL", { filters: { TradeDate: "2023-13-45" } }).catch((e) => e)`,
    `await Deno.jupyter.display(early.head(1)); undefined`,
    `import { describe, plot, Plot } from "${repo}/kernel-helpers/mod.ts";
plot({ marks: [Plot.dot([{ x: 1, y: 2 }, { x: 2, y: 3 }], { x: "x", y: "y" })] })`,
    // Plot itself, with no document given: the kernel helpers provide one.
    `Plot.plot({ marks: [Plot.barY([1, 2, 3])] })`,
    `describe(bars.select("TradeDate", "BarDateTime", "CloseBidPrice"))`,
    // Warnings as the workbench records them (common contract 4), shown above the table.
    `const warned = early.head(1);
(((globalThis as any)[Symbol.for("market-workbench.frameWarnings")] ??= new WeakMap()) as WeakMap<object, string[]>).set(warned, ["MSFT: no rows on 2023-11-23 (market closed)"]);
warned`,
    `const answer = await fetch(local.baseUrl + "/openapi.json");
console.log(JSON.stringify({ pid: local.pid, kernel: Deno.pid, status: answer.status }));
await answer.body?.cancel();`,
    `Deno.kill(Deno.pid, "SIGKILL");`,
  ];
  const input = join(dir, "kernel-helpers.ipynb");
  writeFileSync(input, JSON.stringify(makeNotebook(cells)));
  failure = await executeNotebook(input, join(dir, "out"), { timeoutSeconds: 120 }).then(() => undefined, (e: unknown) => e);
  if (!(failure instanceof NotebookError)) throw failure ?? new Error("The notebook ran to its end: the kernel did not die");
  const { notebook } = failure as NotebookError & { notebook: { cells: { outputs: Output[] }[] } };
  // Every cell before the kernel's death ran without an error.
  expect(errorOutputs(notebook)).toEqual([]);
  outputs = notebook.cells.map((cell) => cell.outputs);
  started = JSON.parse(joined(outputs.at(-2)![0].text).trim());
});
afterAll(() => {
  if (started !== undefined && running(started.pid)) process.kill(started.pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

it("a sandbox started from a notebook kernel stops when that kernel is killed", async () => {
  expect((failure as Error).message).toMatch(/DeadKernel|died|dead/i);
  expect(started!.status).toBe(200); // the sandbox answered while the kernel lived
  expect(running(started!.kernel)).toBe(false);
  const deadline = Date.now() + 10_000;
  while (running(started!.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(running(started!.pid)).toBe(false);
});

it("a frame as a cell's value renders as HTML with dtypes, New York times and dates as text", () => {
  expect(outputs[4]).toHaveLength(1);
  const [result] = outputs[4];
  expect(result.output_type).toBe("execute_result");
  expect(Object.keys(result.data!).sort()).toEqual(["text/html", "text/plain"]); // not Polars' own bundle
  const doc = new JSDOM(joined(result.data!["text/html"])).window.document;
  expect(doc.querySelector(".wb-shape")!.textContent).toMatch(/^9\d\d rows × 5 columns · showing the first 10/);
  expect([...doc.querySelectorAll(".wb-dtype")].map((s) => s.textContent)).toEqual([
    "date",
    "datetime[ns, America/New_York]",
    "str",
    "f64",
    "f64",
  ]);
  const first = [...doc.querySelector("tbody tr")!.children].map((td) => td.textContent);
  expect(first.slice(0, 3)).toEqual(["2023-11-21", "2023-11-21 04:00", "AAPL"]);
  expect(doc.querySelector(".wb-note")!.textContent).toMatch(/^showing the first 10 and last 10 of 9\d\d rows$/);
  expect(joined(result.data!["text/html"])).not.toContain("{}");
  expect(joined(result.data!["text/plain"])).toContain("2023-11-21 04:00 ");
});

it("the progress bar is one display output, updated in place with the same display_id until done", () => {
  const sent = JSON.parse(joined(outputs[3][0].text)) as Sent[];
  expect(sent.length).toBeGreaterThanOrEqual(7); // at once, five pages of 200 bars, then done
  expect(sent[0].type).toBe("display_data");
  expect(sent.slice(1).every((s) => s.type === "update_display_data")).toBe(true);
  expect(new Set(sent.map((s) => s.id))).toEqual(new Set([sent[0].id]));
  expect(sent[0].id).toMatch(/^wb-progress-/);
  expect(sent[0].text).toBe("eq-taq-1min: starting, waiting for the first page"); // shown before any request
  expect(sent[1].text).toMatch(/^eq-taq-1min: (\d+%, )?200 (of [\d,]+ )?rows, 1 page, /);
  expect(sent.at(-1)!.text).toMatch(/^eq-taq-1min: 100%, 9\d\d (of 9\d\d )?rows, \d pages, .*, done in \d+ s$/);
  // nbclient applies each update_display_data to the output with that display_id: one output, the final state.
  expect(outputs[2]).toHaveLength(1);
  expect(outputs[2][0].output_type).toBe("display_data");
  expect(joined(outputs[2][0].data!["text/plain"])).toBe(sent.at(-1)!.text);
  expect(joined(outputs[2][0].data!["text/html"])).toContain("width:100.0%;height:100%;background:#31a354");
});

it("a chart cell outputs an SVG with its marks on a New York time axis, titled in its HTML", () => {
  const [result] = outputs[5];
  const svg = joined(result.data!["image/svg+xml"]);
  const doc = new JSDOM(svg, { contentType: "image/svg+xml" }).window.document;
  expect(doc.documentElement.getAttribute("xmlns")).toBe("http://www.w3.org/2000/svg");
  const [line] = [...doc.querySelectorAll('g[aria-label="line"] path')];
  expect(line.getAttribute("d")!.split("L").length).toBeGreaterThan(900);
  expect(doc.querySelectorAll('g[aria-label="rect"] rect')).toHaveLength(1);
  expect([...doc.querySelectorAll('g[aria-label="x-axis tick label"] text')].map((t) => t.textContent)).toEqual([
    "04:00",
    "06:00",
    "08:00",
    "10:00",
    "12:00",
    "14:00",
    "16:00",
    "18:00",
    "20:00",
  ]);
  expect(joined(result.data!["text/html"])).toContain("AAPL quoted spread, 2023-11-21</div>");
});

it("other values keep the kernel's own display", () => {
  expect(joined(outputs[6][0].data!["text/plain"])).toBe('{ plain: "object" }');
  expect(Object.keys(outputs[6][0].data!)).toEqual(["text/plain"]);
});

/** The HTML and text a frontend receives for cell `i`'s value (its only output). */
function received(i: number) {
  expect(outputs[i]).toHaveLength(1);
  const data = outputs[i][0].data!;
  return {
    html: joined(data["text/html"]),
    text: joined(data["text/plain"]),
    doc: new JSDOM(joined(data["text/html"])).window.document,
    keys: Object.keys(data),
  };
}

it("a frame made before the workbench was imported displays richly, with no installDisplay call", () => {
  const { doc, keys } = received(7);
  expect(keys).not.toContain("application/vnd.dataresource+json"); // not Polars' own bundle
  expect(doc.querySelector(".wb-shape")!.textContent).toBe("2 rows × 2 columns");
  expect([...doc.querySelectorAll("tbody td")].map((td) => td.textContent)).toEqual(["190.6400", "AAPL", "4,512.2575", "MSFT"]);
});

it("a Series shows as a one-column table and a LazyFrame as its schema and plan with a hint to collect", () => {
  expect(received(8).doc.querySelector(".wb-shape")!.textContent).toMatch(/^Series: 9\d\d rows × 1 column · showing/);
  const lazy = received(9);
  expect(lazy.text).toMatch(/^LazyFrame, 2 columns: BarDateTime datetime\[ns, America\/New_York\], CloseBidPrice f64\n/);
  expect(lazy.text).toContain(".collect()");
  expect(lazy.doc.querySelector("details pre")!.textContent).toMatch(/FILTER/);
});

it("an estimate, a dataset status, the entitlements and a download result render as cards", () => {
  const estimate = received(10);
  expect(estimate.text).toMatch(
    /^Estimate: eq-taq-1min\n {2}rows \(about\) +[\d,]+, scaled from the dataset.s status\n {2}requests +\d+\n {2}data +[\d.,]+ (B|KiB|MiB)\n/,
  );
  expect(estimate.doc.querySelectorAll("tr").length).toBe(7);
  const status = received(11);
  expect(status.text).toMatch(/^Dataset status\n/);
  expect(status.text).toMatch(/first available date +2023-11-20/);
  const ent = received(12);
  expect(ent.text).toContain("eq-taq-1min");
  expect(ent.doc.querySelectorAll("svg.wb-icon").length).toBeGreaterThan(0);
  const download = received(13);
  expect(download.text).toMatch(
    /^Download of eq-daily-ohlc complete\n {2}folder +.*daily\n {2}partitions +[\d,]+ by TradeDate; [\d,]+ fetched by this call\n {2}rows written +[\d,]+\n {2}read it with +wb.scan\(/,
  );
});

it("an error shows its class, message and detail", () => {
  const error = received(14);
  expect(error.text).toMatch(/^QueryError\n {2}message +.*2023-13-45/);
  expect(error.doc.querySelector("div")!.getAttribute("style")).toContain("#d9534f");
});

it("plot() of any Plot spec, and Plot.plot() itself, render inline as SVG from a cell", () => {
  const spec = outputs[16][0];
  expect(spec.output_type).toBe("execute_result");
  expect(joined(spec.data!["image/svg+xml"])).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(joined(spec.data!["image/svg+xml"]).match(/<circle/g)).toHaveLength(2);
  const raw = outputs[17];
  expect(raw).toHaveLength(1);
  expect(raw[0].output_type).toBe("execute_result");
  expect(joined(raw[0].data!["text/html"])).toContain('aria-label="bar"');
  expect(joined(raw[0].data!["image/svg+xml"]).match(/<rect/g)!.length).toBeGreaterThanOrEqual(3);
});

it("describe() works on a workbench frame with Date and New York Datetime columns", () => {
  const { doc } = received(18);
  const rows = [...doc.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((td) => td.textContent));
  expect(rows.find((r) => r[0] === "min")!.slice(1, 3)).toEqual(["2023-11-21", "2023-11-21 04:00"]);
  expect(rows.find((r) => r[0] === "count")![3]).toMatch(/^9\d\d(\.0+)?$/);
});

it("a frame's workbench warnings show above its table", () => {
  const { doc, text } = received(19);
  expect(doc.querySelector(".wb-warn")!.textContent).toBe("warning MSFT: no rows on 2023-11-23 (market closed)");
  expect(text.split("\n")[0]).toBe("warning: MSFT: no rows on 2023-11-23 (market closed)");
});

it("Deno.jupyter.display(frame) shows the rich table too", () => {
  const [shown] = outputs[15];
  expect(shown.output_type).toBe("display_data");
  expect(joined(shown.data!["text/plain"])).toMatch(/^1 row × 2 columns\n/);
});
