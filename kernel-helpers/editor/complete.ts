/**
 * Tab completion in a notebook cell: after a dot, the public members of what the chain before
 * it stands for (`wb.` the workbench's API, `wb.data.` the dataset functions, a frame or an
 * expression its methods, along chains of calls: `daily.filter(…).`), never internals, symbols
 * or what every object inherits; inside the quotes of `getColumn("`, `select("` or `pl.col("`,
 * the column names of the frame the call works on. Anything else is left to the Deno kernel's
 * own completion (the answer is undefined).
 */
import { codePointIndex, CodeScan, utf16Index } from "./codeScan.ts";
import type { DocIndex } from "./docIndex.ts";
import { frameColumns, globalValue, memberOf, resolveChain, type Resolved } from "./resolve.ts";

/** A Jupyter `complete_reply`'s content. */
export interface CompleteReply {
  /** Always `ok`: a cell that does not parse still completes. */
  status: "ok";
  /** The completions, best first. */
  matches: string[];
  /** Where the text they replace starts (code points). */
  cursor_start: number;
  /** Where it ends (code points). */
  cursor_end: number;
  /** Each match's kind and signature, as JupyterLab shows them beside the list. */
  metadata: { _jupyter_types_experimental: { start: number; end: number; text: string; type: string; signature: string }[] };
}

interface Item {
  name: string;
  type: string;
  signature: string;
}

/** Frame methods whose arguments are column names. */
const COLUMN_METHODS = new Set([
  "getColumn",
  "getColumnIndex",
  "select",
  "drop",
  "dropNulls",
  "sort",
  "groupBy",
  "unique",
  "withColumnRenamed",
  "partitionBy",
  "explode",
  "col",
  "cols",
]);

/** Members of every object that completion leaves out (nodejs-polars' `inner` is its native handle). */
const NOT_OFFERED = new Set(["toString", "toJSON", "valueOf", "inner", "toLocaleString"]);

/** What a runtime value offers when its type is not in the index: its own and inherited members, not Object's or Function's. */
function runtimeItems(value: unknown): Item[] | undefined {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined;
  const items: Item[] = [];
  const seen = new Set<string>();
  for (
    let o: object | null = value as object;
    o !== null && o !== Object.prototype && o !== Function.prototype;
    o = Object.getPrototypeOf(o)
  ) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (seen.has(name) || /^(\d+|constructor|__.*|_.*)$/.test(name) || NOT_OFFERED.has(name)) continue;
      if (typeof value === "function" && o === value && ["length", "name", "prototype", "arguments", "caller"].includes(name)) continue;
      seen.add(name);
      const d = Object.getOwnPropertyDescriptor(o, name)!;
      items.push({ name, type: typeof d.value === "function" ? "function" : "property", signature: "" });
    }
  }
  return items;
}

/** The members completion offers for what a chain resolved to. */
function itemsOf(index: DocIndex, r: Resolved): Item[] | undefined {
  if (r.type === "pl") {
    const names = r.hasValue ? Object.keys(r.value as object) : Object.keys(index.polars);
    return names.filter((n) => !/^(_|pl$|default$)/.test(n)).map((name) => {
      const doc = memberOf(index, r, name);
      return { name, type: doc?.kind === "variable" || doc?.kind === "class" ? "class" : "function", signature: doc?.signatures[0] ?? "" };
    });
  }
  const type = r.type ? index.types[r.type] : undefined;
  if (type) {
    return type.members.filter((m) => !m.deprecated && !NOT_OFFERED.has(m.name))
      .map((m) => ({ name: m.name, type: m.kind === "method" ? "function" : "property", signature: m.signatures[0] }));
  }
  return r.hasValue ? runtimeItems(r.value) : undefined;
}

/**
 * The frame a column-name argument at `quote` belongs to: the receiver of `frame.getColumn("`,
 * else, for `pl.col("` (or `col("`), the nearest enclosing call on a frame
 * (`daily.filter(pl.col("`); else the frames the cell names.
 */
function columnsAt(index: DocIndex, scan: CodeScan, quote: number): string[] | undefined {
  const before = scan.back(quote);
  const open = scan.code[before] === "(" ? before : scan.code[before] === "," ? scan.openCall(quote) : -1;
  if (open < 0) return undefined;
  const callee = scan.chainBefore(open);
  const method = callee?.steps.at(-1)?.name ?? callee?.root;
  if (!callee || !method || !COLUMN_METHODS.has(method)) return undefined;
  const receiverColumns = (chain: NonNullable<typeof callee>) => {
    if (chain.steps.length === 0) return undefined;
    const receiver = resolveChain(index, { ...chain, steps: chain.steps.slice(0, -1) });
    return receiver?.hasValue ? frameColumns(receiver.value) : undefined;
  };
  const own = receiverColumns(callee);
  if (own) return own;
  if (method !== "col" && method !== "cols") return undefined;
  for (let k = callee.start, depth = 0; depth < 8; depth++) {
    const outerOpen = scan.openCall(k);
    if (outerOpen < 0) break;
    const outer = scan.chainBefore(outerOpen);
    const columns = outer && receiverColumns(outer);
    if (columns) return columns;
    k = outer?.start ?? outerOpen;
  }
  // No frame around: the columns of every frame the cell names, in the order named.
  const names = [...new Set(scan.code.match(/[A-Za-z_$][\w$]*/g) ?? [])];
  const all = names.flatMap((name) => {
    const v = globalValue(name);
    return v.found ? frameColumns(v.value) ?? [] : [];
  });
  return all.length ? [...new Set(all)] : undefined;
}

const reply = (code: string, start: number, end: number, items: Item[]): CompleteReply => {
  const s = codePointIndex(code, start);
  const e = codePointIndex(code, end);
  return {
    status: "ok",
    matches: items.map((i) => i.name),
    cursor_start: s,
    cursor_end: e,
    metadata: { _jupyter_types_experimental: items.map((i) => ({ start: s, end: e, text: i.name, type: i.type, signature: i.signature })) },
  };
};

/**
 * The completions at `cursor` (in code points, as Jupyter counts) of a cell's `code`, or
 * undefined to leave them to the kernel.
 *
 * @example
 * ```ts
 * complete(index, "wb.", 3)?.matches; // ["account", "meta", "data", ...]
 * ```
 */
export function complete(index: DocIndex, code: string, cursor: number): CompleteReply | undefined {
  const at = utf16Index(code, cursor);
  const scan = new CodeScan(code);
  if (scan.inComment(at)) return undefined;
  const text = scan.stringAt(at);
  if (text) {
    const columns = columnsAt(index, scan, text.quote);
    if (!columns) return undefined;
    const items = columns.filter((c) => c.startsWith(text.text)).map((name) => ({ name, type: "column", signature: "" }));
    return reply(code, text.quote + 1, at, items);
  }
  let start = at;
  while (start > 0 && /[\w$]/.test(code[start - 1])) start--;
  const dot = scan.back(start);
  if (dot < 0 || code[dot] !== "." || !scan.isCode(dot)) return undefined;
  const chain = scan.chainBefore(dot > 0 && code[dot - 1] === "?" ? dot - 1 : dot);
  const resolved = chain && resolveChain(index, chain);
  const items = resolved && itemsOf(index, resolved);
  if (!items) return undefined;
  let end = at;
  while (end < code.length && /[\w$]/.test(code[end])) end++;
  const prefix = code.slice(start, at);
  return reply(code, start, end, items.filter((i) => i.name.startsWith(prefix)));
}
