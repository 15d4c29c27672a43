/**
 * The editor's help in the kernel, in-process (the kernel test, test/scripts/kernelProtocol.test.ts,
 * asks the same through the Jupyter protocol): reading a cell around the cursor, completion of
 * members along chains and of column names, Shift+Tab help, from the help index that
 * `deno doc` builds from the TypeScript sources. Globals stand for a notebook's earlier cells.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { complete } from "../../kernel-helpers/editor/complete.ts";
import { codePointIndex, CodeScan, utf16Index } from "../../kernel-helpers/editor/codeScan.ts";
import type { DocIndex } from "../../kernel-helpers/editor/docIndex.ts";
import { docIndex } from "../../kernel-helpers/editor/indexFile.ts";
import { inspect } from "../../kernel-helpers/editor/inspect.ts";
import { denoPath } from "../../scripts/paths.mjs";
import { connect } from "../../workbench/mod.ts";

let index: DocIndex;
const globals = globalThis as Record<string, unknown>;
const cacheDir = mkdtempSync(join(tmpdir(), "editor-cache-"));
beforeAll(async () => {
  index = await docIndex(denoPath());
  globals.wb = await connect({ baseUrl: "http://127.0.0.1:9", apiKey: "not-sent" }); // sends nothing until a call
  globals.cached = await connect({ baseUrl: "http://127.0.0.1:9", apiKey: "not-sent", cache: cacheDir });
  globals.daily = pl.DataFrame({ TradeDate: [new Date("2023-11-20")], Ticker: ["AAPL"], ClosePrice: [191.45] });
  globals.pl = pl;
  globals.cfg = { alpha: 1, beta: "x" };
  Object.defineProperty(globalThis, "sneaky", {
    get: () => {
      throw new Error("a getter ran");
    },
    configurable: true,
  });
}, 60_000);
afterAll(() => {
  for (const name of ["wb", "cached", "daily", "pl", "cfg", "sneaky"]) delete globals[name];
  rmSync(cacheDir, { recursive: true, force: true });
});

const matches = (code: string, cursor = [...code].length) => complete(index, code, cursor)?.matches;

describe("reading a cell", () => {
  it("finds the chain before a dot, across calls, lines and comments", () => {
    const code = 'const x = daily\n  .filter(pl.col("a").gt(1)) // keep\n  .sort("b")\n  .';
    expect(new CodeScan(code).chainBefore(code.length - 1)).toEqual({
      root: "daily",
      steps: [{ name: "filter", call: true }, { name: "sort", call: true }],
      start: 10,
    });
    expect(new CodeScan("f().x").chainBefore(3)).toBeUndefined();
    expect(new CodeScan('"abc".').chainBefore(5)).toBeUndefined();
  });

  it("knows when the cursor is inside a string, up to its closing quote", () => {
    const scan = new CodeScan('daily.getColumn("Cl")');
    expect(scan.stringAt(19)).toEqual({ quote: 16, text: "Cl" });
    expect(scan.stringAt(17)).toEqual({ quote: 16, text: "" });
    expect(scan.stringAt(16)).toBeUndefined();
    expect(scan.stringAt(21)).toBeUndefined();
  });

  it("counts the cursor in code points, as Jupyter does", () => {
    expect(utf16Index("é😀x", 2)).toBe(3);
    expect(codePointIndex("é😀x", 3)).toBe(2);
    expect(matches('/* 😀 */ daily.getColumn("Ti')).toEqual(["Ticker"]);
  });
});

describe("completion", () => {
  it("offers the API on wb. and the dataset functions on wb.data.", () => {
    expect(matches("wb.")).toEqual([
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
    expect(matches("wb.data.o")).toEqual(["optGreeksDaily", "optOpenInterest", "optSecMaster", "occEqSpecSettl"]);
    expect(matches("wb.meta.")).toEqual(["datasets", "status", "availability", "columns", "schema"]);
  });

  it("completes workbench objects whose classes the public modules export as types only, by their class", () => {
    expect(matches("cached.cache.")).toEqual(["enabled", "hits", "misses", "getOrFetch", "verify"]);
    expect(matches("wb.cache.")).toEqual(["enabled", "dir", "hits", "misses", "verify"]);
  });

  it("follows a frame through calls by their declared return types, never running them", () => {
    expect(matches("daily.")?.slice(0, 10)).toEqual([
      "dtypes",
      "height",
      "shape",
      "width",
      "columns",
      "clear",
      "clone",
      "count",
      "describe",
      "drop",
    ]);
    expect(matches('daily.lazy().filter(pl.col("x")).coll')).toEqual(["collect", "collectSync"]);
    expect(matches('daily.getColumn("ClosePrice").cum')).toEqual(["cumCount", "cumMax", "cumMin", "cumProd", "cumSum"]);
    expect(matches('pl.col("x").str.to')).toEqual(["toLowerCase", "toUpperCase"]);
  });

  it("offers column names in getColumn, select and pl.col, the frame found around pl.col", () => {
    expect(matches('daily.select("TradeDate", "')).toEqual(["TradeDate", "Ticker", "ClosePrice"]);
    expect(matches('daily.withColumns(pl.col("ClosePrice").div(pl.col("T')).toEqual(["TradeDate", "Ticker"]);
    // No frame around: the frames the cell names.
    expect(matches('const e = pl.col("C'.concat('"); daily'), 'const e = pl.col("C'.length)).toEqual(["ClosePrice"]);
  });

  it("lists a plain object's own members and leaves unknown names and bare words to Deno", () => {
    expect(matches("cfg.")).toEqual(["alpha", "beta"]);
    expect(matches("nosuch.")).toBeUndefined();
    expect(matches("sneaky.")).toBeUndefined(); // a getter on globalThis is not run
    expect(matches("da")).toBeUndefined();
    expect(matches("// daily.")).toBeUndefined();
  });
});

describe("Shift+Tab help", () => {
  const help = (code: string, cursor = [...code].length) => inspect(index, code, cursor);

  it("shows the signature and JSDoc of the call the cursor is in", () => {
    const r = help('wb.data.eqTaq1Min(["SPY"], { start: "2023-11-20" })', 'wb.data.eqTaq1Min(["SPY"], { st'.length);
    expect(r.found).toBe(true);
    expect(r.data["text/plain"]).toMatch(
      /^DataApi\.eqTaq1Min\(tickers: Symbols \| SymbolQuery, query\?: SymbolQuery\): Promise<DataFrame>\n\n1-minute TAQ bars/,
    );
    expect(r.data["text/markdown"]).toMatch(/^```ts\nDataApi\.eqTaq1Min\(/);
  });

  it("shows workbench functions, frame methods and what a variable holds", () => {
    expect(help("connect").data["text/plain"]).toMatch(
      /^connect\(options\?: ConnectOptions\): Promise<Workbench>\n\nConnects to the Datasets Service/,
    );
    expect(help("daily.groupBy").data["text/plain"]).toMatch(/^DataFrame\.groupBy\(/);
    expect(help("daily").data["text/plain"]).toMatch(
      /^daily: 1 rows × 3 columns: TradeDate \(datetime\[ms\]\), Ticker \(str\), ClosePrice \(f64\)/,
    );
    expect(help("nosuch(").found).toBe(false);
  });
});
