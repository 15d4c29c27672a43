/**
 * The project's Deno kernel over the Jupyter protocol, from Python's jupyter_client (as
 * JupyterLab's server and nbclient speak to it), through its relay (scripts/jupyter-kernel/):
 * - before the kernel helpers are loaded: a plain Deno kernel's answers (its own to Shift+Tab;
 *   an interrupt that stops nothing, the kernel alive and the cell ending on its own);
 * - `complete_request`: `wb.` offers the API and nothing internal or inherited, `wb.data.` the
 *   dataset functions, a frame and an expression their methods (along a chain of calls), and
 *   the quotes of `getColumn("` and `pl.col("` the frame's column names;
 * - `inspect_request` (Shift+Tab): signature and JSDoc of a data function, a frame method,
 *   `pl.col`, and what a frame variable holds;
 * - `interrupt_kernel()` (the stop button) during a pull from a sandbox that answers slowly:
 *   the cell ends within 2 s with an InterruptedError, its progress bar ends "interrupted",
 *   every variable is kept and the rows fetched are on `lastInterrupted()`.
 * - a new client whose IOPub subscription reaches the kernel after its first cell was sent (a
 *   server that skipped its nudge) still gets that cell's output.
 * One kernel and one sandbox for all of it.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jupyterEnv, jupyterPython } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import { connect, DataApi } from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import process from "node:process";

interface Result {
  op: string;
  code?: string;
  outputs?: string[];
  error?: string | null;
  matches?: string[];
  cursor_start?: number;
  cursor_end?: number;
  metadata?: { _jupyter_types_experimental?: { type: string; signature: string }[] };
  found?: boolean;
  data?: Record<string, string>;
  seconds?: number;
  ename?: string;
  evalue?: string;
  interrupted?: boolean;
  last_output?: string;
  alive?: boolean;
}

const repo = process.cwd();
// Every answer 200 ms late, as from a distant service: a pull of small pages runs for seconds.
let sb: TestSandbox;
let results: Result[] = [];
let stderr = "";

const steps = (baseUrl: string) => [
  // A plain Deno kernel (the helpers not loaded yet): its own completion, and an interrupt that stops nothing.
  { op: "inspect", code: "Math.abs(" },
  { op: "execute", code: "await new Promise((r) => setTimeout(r, 1500)); 'slept'" },
  { op: "interrupt_idle" },
  {
    op: "execute",
    code: `import { connect, lastInterrupted, progressBar } from "${repo}/notebook.ts";
import pl from "nodejs-polars";
const wb = await connect({ baseUrl: "${baseUrl}", apiKey: "demo-full-access" });
const daily = await wb.data.eqDailyOhlc(["AAPL", "MSFT"], { start: "2023-11-20", end: "2023-11-22" });
daily.height`,
  },
  { op: "complete", code: "wb." },
  { op: "complete", code: "wb.data." },
  { op: "complete", code: "wb.data.eq" },
  { op: "complete", code: "daily." },
  { op: "complete", code: 'daily.filter(pl.col("ClosePrice").gt(1)).sort("TradeDate").wi' },
  { op: "complete", code: 'pl.col("ClosePrice").' },
  { op: "complete", code: 'daily.getColumn("' },
  { op: "complete", code: 'daily.getColumn("Cl")', cursor: 'daily.getColumn("Cl'.length },
  { op: "complete", code: 'daily.filter(pl.col("Tic' },
  { op: "inspect", code: 'wb.data.eqDailyOhlc("AAPL", { start: "2023-11-01" })', cursor: 'wb.data.eqDailyOhlc("AAPL", '.length },
  { op: "inspect", code: "daily.filter(" },
  { op: "inspect", code: 'pl.col("x")', cursor: 4 },
  { op: "inspect", code: "daily" },
  {
    op: "interrupt",
    code:
      'const bars = await wb.data.eqTaq1Min(["AAPL", "MSFT", "SPY", "JPM"], { start: "2023-11-20", end: "2023-11-22", pageSize: 100, onProgress: progressBar() });',
    after: ": (\\d+%, )?[1-9][\\d,]* (of [\\d,]+ )?rows",
  },
  { op: "execute", code: "`${daily.height} ${lastInterrupted()?.partial?.height}`" },
  { op: "late_subscriber", code: "6 * 7", delay: 0.5 },
];

beforeAll(async () => {
  sb = await startSandbox({ args: ["--latency", "200"] });
  const result = await run(jupyterPython()!, [join(import.meta.dirname, "support", "kernelProtocol.py"), repo], {
    env: jupyterEnv(),
    input: JSON.stringify(steps(sb.baseUrl)),
    timeoutMs: 240_000,
  });
  stderr = result.stderr;
  results = result.stdout.trim().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  if (process.env.KERNEL_PROTOCOL_TIMES) {
    console.log(results.map((r) => `${(r as { took?: number }).took} s ${r.op} ${r.code?.slice(0, 40) ?? ""}`).join("\n"));
  }
}, 300_000);
afterAll(async () => await sb?.stop());

const find = (op: string, code: string) => {
  const r = results.find((x) => x.op === op && x.code === code);
  expect(r, `no ${op} of ${code}:\n${stderr.slice(-3000)}`).toBeDefined();
  return r!;
};

describe("a plain Deno kernel, before the helpers are loaded", () => {
  it("answers Shift+Tab with Deno's own answer (nothing found), and ignores an interrupt", () => {
    expect(find("inspect", "Math.abs(")).toMatchObject({ status: "ok", found: false });
    expect(find("execute", "await new Promise((r) => setTimeout(r, 1500)); 'slept'").outputs).toEqual(['"slept"']);
    expect(results.find((r) => r.op === "interrupt_idle")?.alive).toBe(true);
  });
});

describe("complete_request", () => {
  it("offers the workbench's API on wb. and nothing internal or inherited", () => {
    const r = find("complete", "wb.");
    expect(r.matches).toEqual([
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
    expect(r.cursor_start).toBe(3);
    expect(r.metadata?._jupyter_types_experimental?.find((t) => t.signature.startsWith("estimate("))?.type).toBe("function");
  });

  it("offers the dataset functions on wb.data., in the class's order", () => {
    expect(find("complete", "wb.data.").matches).toEqual([
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
    expect(find("complete", "wb.data.eq").matches).toEqual(["eqTaq1Min", "eqDailyOhlc", "eqTaq", "eqLookupFiles"]);
  });

  it("offers a frame's methods, along a chain of calls, and an expression's", () => {
    const frame = find("complete", "daily.").matches!;
    expect(frame.slice(0, 5)).toEqual(["dtypes", "height", "shape", "width", "columns"]);
    expect(frame).toEqual(
      expect.arrayContaining(["filter", "select", "withColumns", "groupBy", "join", "sort", "getColumn", "lazy", "head"]),
    );
    expect(frame.filter((m) => /^(_|constructor$|__|inner$|toString$)/.test(m))).toEqual([]);
    expect(find("complete", 'daily.filter(pl.col("ClosePrice").gt(1)).sort("TradeDate").wi').matches).toEqual([
      "width",
      "withColumn",
      "withColumns",
      "withColumnRenamed",
      "withRowIndex",
    ]);
    const expr = find("complete", 'pl.col("ClosePrice").').matches!;
    expect(expr).toEqual(expect.arrayContaining(["alias", "gt", "div", "mean", "over", "cast", "str", "dt"]));
  });

  it('offers the frame\'s column names inside getColumn(" and pl.col("', () => {
    const columns = find("complete", 'daily.getColumn("').matches!;
    expect(columns.slice(0, 3)).toEqual(["TradeDate", "Ticker", "ASID"]);
    expect(columns).toContain("ClosePrice");
    const cl = find("complete", 'daily.getColumn("Cl")');
    expect(cl.matches).toEqual(["ClosePrice"]);
    expect([cl.cursor_start, cl.cursor_end]).toEqual(['daily.getColumn("'.length, 'daily.getColumn("Cl'.length]);
    expect(find("complete", 'daily.filter(pl.col("Tic').matches).toEqual(["Ticker"]);
  });
});

describe("inspect_request (Shift+Tab)", () => {
  it("shows a data function's signature and JSDoc with its example, inside its call", () => {
    const r = find("inspect", 'wb.data.eqDailyOhlc("AAPL", { start: "2023-11-01" })');
    expect(r.found).toBe(true);
    expect(r.data!["text/plain"]).toMatch(
      /^DataApi\.eqDailyOhlc\(tickers\?: Symbols \| SymbolQuery, query\?: SymbolQuery\): Promise<DataFrame>\n\nDaily OHLC bars \(GET \/api\/v1\/data\/us-equity\/eq-daily-ohlc\)/,
    );
    expect(r.data!["text/markdown"]).toContain('```ts\nconst odfl = await wb.data.eqDailyOhlc("ODFL"');
  });

  it("shows a frame method's and pl.col's documentation from Polars' declarations, and what a frame holds", () => {
    expect(find("inspect", "daily.filter(").data!["text/plain"]).toMatch(
      /^DataFrame\.filter\(predicate: any\): DataFrame<S>\n\nFilter the rows in the DataFrame based on a predicate expression\./,
    );
    expect(find("inspect", 'pl.col("x")').data!["text/plain"]).toMatch(
      /^pl\.col\(col: string \| string\[\] \| Series \| DataType\): Expr\n\n__A column in a DataFrame\.__/,
    );
    expect(find("inspect", "daily").data!["text/plain"]).toMatch(/^daily: 6 rows × \d+ columns: TradeDate \(date\), Ticker \(str\), /);
  });
});

describe("interrupt_kernel() during a pull", () => {
  it("ends the cell within 2 s with an InterruptedError, the bar 'interrupted', every variable kept", () => {
    const r = results.find((x) => x.op === "interrupt")!;
    expect(r, stderr.slice(-3000)).toBeDefined();
    expect(r.interrupted, JSON.stringify(r)).toBe(true);
    expect(r.ename).toBe("InterruptedError");
    expect(r.evalue).toMatch(
      /^Interrupted: eq-taq-1min fetched [\d,]+ rows \((of about [\d,]+|the total not yet known); \d of 4 tickers complete\)\. They are on lastInterrupted\(\)\.partial; await lastInterrupted\(\)\.resume\(\) fetches the rest\.$/,
    );
    expect(r.seconds).toBeLessThanOrEqual(2);
    expect(r.last_output).toMatch(/^eq-taq-1min: .*, interrupted after \d+ s$/);
    const [kept, partial] = find("execute", "`${daily.height} ${lastInterrupted()?.partial?.height}`").outputs![0].replace(/"/g, "").split(
      " ",
    );
    expect(kept).toBe("6");
    expect(Number(partial)).toBeGreaterThan(0);
    console.log(`interrupt latency: ${r.seconds} s (from interrupt_kernel() to the cell's error)`);
  });
});

describe("a new client whose IOPub subscription comes late", () => {
  it("gets its first cell's output: the request waits for the subscription", () => {
    // As from a Jupyter server that skipped its nudge (it believed the kernel busy): the cell is
    // sent at once, the subscription half a second later (scripts/jupyter-kernel/subscriptions.py).
    expect(find("late_subscriber", "6 * 7").outputs).toEqual(["42"]);
  });
});

it("wb.data without Object.prototype still converts to text and is a DataApi", async () => {
  const wb = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-full-access" });
  expect(`${wb.data}`).toBe("wb.data");
  expect(wb.data instanceof DataApi).toBe(true);
});
