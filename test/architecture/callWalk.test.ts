/**
 * The walk of one data call: which modules of the workbench it enters, in order, and how often
 * it comes back to one. Every function and class method the workbench's modules export is
 * wrapped (vitest reads an import through the exporting module's object, so a wrapper there
 * sees every call from another module); a call counts as an entry when its caller runs in
 * another module (the caller's module follows the call through its awaits). The calls run
 * against the sandbox's app in-process on a fresh workbench, so its free reads are in the walk.
 *
 * The checks: before its first unit is fetched, a call enters the guard once (its stage:
 * dates, tickers, quota) and checks its shape once (in plan).
 *
 * `CALL_WALK_OUT=file` writes the walk as text (docs/architecture.md says how to read it).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import process from "node:process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const active = new AsyncLocalStorage<string>();
/** Entries in order: caller module -> callee module.function. */
let entries: { from: string; to: string; fn: string }[] = [];
/** Puts back what `instrument` wrapped: the test files after this one share its modules (vitest's isolate: false). */
const restores: (() => void)[] = [];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((
    d,
  ) => (d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : []));
}

/** The module a wrapped function belongs to, as `folder/file` under workbench/. */
const moduleName = (file: string) => relative(join(ROOT, "workbench"), file).replace(/\.ts$/, "");

function wrap<F extends (...args: never[]) => unknown>(module: string, name: string, fn: F): F {
  return function (this: unknown, ...args: never[]) {
    const from = active.getStore() ?? "(notebook)";
    if (from !== module) entries.push({ from, to: module, fn: name });
    return active.run(module, () => fn.apply(this, args));
  } as F;
}

const isClass = (v: unknown) => typeof v === "function" && /^class\b/.test(Function.prototype.toString.call(v));

async function instrument(): Promise<void> {
  const files = tsFiles(join(ROOT, "workbench")).filter((f) => !/[/\\](research|display)[/\\]|mod\.ts$/.test(f));
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const module = moduleName(file);
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== "function") continue;
      // Only where it is defined: a re-export reads the defining module's (wrapped) export.
      if (!new RegExp(`(function\\*?|class|const|let)\\s+${name.replace(/\$/g, "\\$")}\\b`).test(text)) continue;
      if (isClass(value)) {
        const proto = (value as { prototype: Record<string, unknown> }).prototype;
        for (const key of Object.getOwnPropertyNames(proto)) {
          const d = Object.getOwnPropertyDescriptor(proto, key)!;
          if (key === "constructor" || typeof d.value !== "function") continue;
          Object.defineProperty(proto, key, { ...d, value: wrap(module, `${name}.${key}`, d.value) });
          restores.push(() => Object.defineProperty(proto, key, d));
        }
      } else {
        const wrapped = wrap(module, name, value as (...args: never[]) => unknown);
        const d = Object.getOwnPropertyDescriptor(mod, name)!;
        Object.defineProperty(mod, name, { configurable: true, enumerable: true, get: () => wrapped });
        restores.push(() => Object.defineProperty(mod, name, d));
      }
    }
  }
}

/** The walk as text: entries in order (repeats in a row folded), then entries per folder. */
function describeWalk(title: string): string {
  const lines = [`## ${title}`, "", "Entries in order (caller -> module.function, repeats in a row folded):", ""];
  let last = "";
  let times = 0;
  const flush = () => last && lines.push(`- ${last}${times > 1 ? ` x${times}` : ""}`);
  for (const e of entries) {
    const line = `${e.from} -> ${e.to}.${e.fn.replace(/^[^.]*\./, (c) => (e.fn.includes(".") ? c : ""))}`;
    if (line === last) times++;
    else {
      flush();
      last = line;
      times = 1;
    }
  }
  flush();
  lines.push("", "Entries into each folder from another folder (the functions entered):", "");
  const folder = (m: string) => m.split("/").slice(0, -1).join("/") || m;
  const byFolder = new Map<string, Map<string, number>>();
  for (const e of entries) {
    if (folder(e.from) === folder(e.to)) continue;
    const f = byFolder.get(folder(e.to)) ?? new Map<string, number>();
    f.set(`${e.to}.${e.fn}`, (f.get(`${e.to}.${e.fn}`) ?? 0) + 1);
    byFolder.set(folder(e.to), f);
  }
  for (const [f, fns] of byFolder) {
    const total = [...fns.values()].reduce((a, b) => a + b, 0);
    lines.push(`- ${f}: ${total} (${[...fns].map(([fn, n]) => `${fn} x${n}`).join(", ")})`);
  }
  return lines.join("\n");
}

/** Entries into a folder from another folder before the call's units are fetched. */
function beforeFetching(target: string): { from: string; fn: string }[] {
  const folder = (m: string) => m.split("/").slice(0, -1).join("/") || m;
  const fetching = entries.findIndex((e) => e.to === "fetch/runUnits");
  expect(fetching).toBeGreaterThan(0);
  return entries.slice(0, fetching).filter((e) => folder(e.to) === target && folder(e.from) !== target).map((e) => ({
    from: e.from,
    fn: `${e.to}.${e.fn}`,
  }));
}

/** The call's one guard stage and its one shape check, before its units are fetched. */
function expectOneGuardAndShapeCheck(): void {
  expect(beforeFetching("guard")).toEqual([{ from: "pipeline/pipeline", fn: "guard/guardStage.GuardStage.enter" }]);
  expect(entries.filter((e) => e.fn === "checkQuery").map((e) => e.from)).toEqual(["query/plan"]);
}

describe("the walk of a data call", () => {
  let sb: AppSandbox;
  const walks: string[] = [];
  beforeAll(async () => {
    await instrument();
    sb = await openAppSandbox();
  });
  afterAll(async () => {
    restores.splice(0).reverse().forEach((restore) => restore());
    entries = [];
    await sb?.stop();
    if (process.env.CALL_WALK_OUT) writeFileSync(process.env.CALL_WALK_OUT, walks.join("\n\n") + "\n");
  });

  const fresh = async () => {
    const { connect } = await import("../../workbench/mod.ts");
    return await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access", provenance: false });
  };

  it("eqDailyOhlc of one ticker over a week", async () => {
    const wb = await fresh();
    entries = [];
    const frame = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-24" });
    expect(frame.height).toBe(4);
    walks.push(describeWalk('wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-24" }) on a fresh workbench'));
    expectOneGuardAndShapeCheck();
  });

  it("eqTaq1Min of two tickers over a week (a universe)", async () => {
    const wb = await fresh();
    entries = [];
    const frame = await wb.data.eqTaq1Min(["SPY", "AAPL"], { start: "2023-11-20", end: "2023-11-24" });
    expect(frame.height).toBeGreaterThan(0);
    walks.push(describeWalk('wb.data.eqTaq1Min(["SPY", "AAPL"], { start: "2023-11-20", end: "2023-11-24" }) on a fresh workbench'));
    expectOneGuardAndShapeCheck();
  });

  it("puts back every module it wrapped (the test files after it share them)", async () => {
    restores.splice(0).reverse().forEach((restore) => restore());
    entries = [];
    const { dataEndpoint } = await import("../../workbench/query/endpoints.ts");
    const { planCall } = await import("../../workbench/query/plan.ts");
    planCall(dataEndpoint("eq-daily-ohlc"), [], { start: "2023-11-20", end: "2023-11-24" });
    expect(entries).toEqual([]);
  });
});
