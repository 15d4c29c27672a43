/**
 * What a member chain in a cell stands for, without running the user's code: its root is
 * read from the kernel's global scope by name (a variable of an earlier cell), data
 * properties are followed on the value, and past a call or a getter the chain goes on by
 * type, from the help index (`daily.filter(…).` is a DataFrame because `filter` returns one).
 * No call, getter or Proxy trap of the user's objects runs: a Polars frame's properties are
 * never touched (its Proxy reads any name as a column).
 */
import pl from "nodejs-polars";
import * as workbench from "../../workbench/mod.ts";
import type { Chain } from "./codeScan.ts";
import type { DocIndex, MemberDoc } from "./docIndex.ts";

/** Where a chain leads: a value (when every step was a data property) and its type in the index. */
export interface Resolved {
  /** The value itself, when it could be read without running code. */
  value?: unknown;
  /** Whether `value` holds the value (it may be undefined itself). */
  hasValue: boolean;
  /** Its type's name in the index (`DataFrame`, `Workbench`), or `pl` for Polars' namespace. */
  type?: string;
}

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await")
    .split(" "),
);

/**
 * The value a cell's code names `name` at top level (a `const` of an earlier cell, a global),
 * read by an indirect eval of the bare name: it runs nothing but the lookup. A global defined
 * by a getter is not read.
 *
 * @example
 * ```ts
 * globalValue("daily"); // { found: true, value: <the frame> }
 * ```
 */
export function globalValue(name: string): { found: boolean; value?: unknown } {
  if (!/^[A-Za-z_$][\w$]*$/.test(name) || RESERVED.has(name)) return { found: false };
  const own = Object.getOwnPropertyDescriptor(globalThis, name);
  if (own && !("value" in own)) return { found: false };
  try {
    return { found: true, value: (0, eval)(name) };
  } catch {
    return { found: false }; // not declared, or not yet initialised
  }
}

const tagOf = (value: object) => {
  try {
    return Object.prototype.toString.call(value).slice(8, -1);
  } catch {
    return "";
  }
};

/** Whether a value is Polars' namespace (`import pl from "nodejs-polars"`). */
const isPolarsNamespace = (v: unknown) =>
  v === pl ||
  (typeof v === "object" && v !== null && typeof (v as typeof pl).col === "function" && typeof (v as typeof pl).lit === "function" &&
    typeof (v as typeof pl).DataFrame === "function");

/**
 * The index type of a runtime value: a Polars frame, lazy frame, series or expression, a
 * workbench object (by its class, nearest first), or Polars' namespace (`pl`).
 *
 * @example
 * ```ts
 * typeOfValue(wb.data); // "DataApi"
 * ```
 */
export function typeOfValue(value: unknown): string | undefined {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined;
  const tag = tagOf(value as object);
  if (tag === "DataFrame" || tag === "LazyDataFrame") return tag;
  if (isPolarsNamespace(value)) return "pl";
  try {
    if (pl.Series.isSeries(value)) return "Series";
    if (pl.Expr.isExpr(value)) return "Expr";
  } catch {
    // not one of Polars' objects
  }
  for (let proto = Object.getPrototypeOf(value); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const cls = CLASSES.get(proto);
    if (cls) return cls;
  }
  return undefined;
}

/** The workbench's exported classes by their prototype. */
const CLASSES = new Map<unknown, string>(
  Object.entries(workbench).flatMap(([name, v]) => (typeof v === "function" && v.prototype ? [[v.prototype, name] as const] : [])),
);

/**
 * The index type of a workbench object whose class the public modules export as a type only
 * (`wb.cache`, `wb.transport`): its class's name, when the index documents a type of that name.
 */
function indexedClassOf(index: DocIndex, value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  for (let proto = Object.getPrototypeOf(value); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const name = Object.hasOwn(proto, "constructor") ? (proto.constructor as { name?: unknown }).name : undefined;
    if (typeof name === "string" && Object.hasOwn(index.types, name)) return name;
  }
  return undefined;
}

/** Polars' frames: their properties are read only through the index (their Proxy reads any name as a column). */
const isFrame = (r: Resolved) => r.type === "DataFrame";

/**
 * A member of what `r` is: from its type's members in the index, or Polars' `pl.` functions.
 *
 * @example
 * ```ts
 * memberOf(index, { hasValue: false, type: "DataFrame" }, "filter")?.returns; // "DataFrame"
 * ```
 */
export function memberOf(index: DocIndex, r: Resolved, name: string): MemberDoc | undefined {
  if (r.type === "pl") return Object.hasOwn(index.polars, name) ? index.polars[name] : undefined;
  return r.type ? index.types[r.type]?.members.find((m) => m.name === name) : undefined;
}

/** A data property's value along the prototype chain (getters and Proxies are not run). */
function dataProperty(value: unknown, name: string): { found: boolean; value?: unknown } {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return { found: false };
  for (let o: object | null = value as object; o !== null; o = Object.getPrototypeOf(o)) {
    const d = Object.getOwnPropertyDescriptor(o, name);
    if (d) return "value" in d ? { found: true, value: d.value } : { found: false };
  }
  return { found: false };
}

/**
 * What `chain` leads to, or undefined when a step cannot be followed without running code
 * (a call whose return type the index does not know, an unknown root).
 *
 * @example
 * ```ts
 * resolveChain(index, { root: "daily", steps: [{ name: "filter", call: true }], start: 0 }); // { hasValue: false, type: "DataFrame" }
 * ```
 */
export function resolveChain(index: DocIndex, chain: Chain): Resolved | undefined {
  const root = globalValue(chain.root);
  if (!root.found) return undefined;
  let r: Resolved = { value: root.value, hasValue: true, type: typeOfValue(root.value) ?? indexedClassOf(index, root.value) };
  for (const step of chain.steps) {
    if (!step.call && r.hasValue && !isFrame(r)) {
      const prop = dataProperty(r.value, step.name);
      if (prop.found) {
        r = {
          value: prop.value,
          hasValue: true,
          type: typeOfValue(prop.value) ?? indexedClassOf(index, prop.value) ?? memberOf(index, r, step.name)?.returns,
        };
        continue;
      }
    }
    const member = memberOf(index, r, step.name);
    if (!member?.returns || (step.call && member.kind === "property")) return undefined;
    r = { hasValue: false, type: member.returns };
  }
  return r;
}

/**
 * The column names of a frame or lazy frame (a lazy frame's from its schema: nothing is
 * collected); undefined for anything else.
 *
 * @example
 * ```ts
 * frameColumns(daily); // ["TradeDate", "Ticker", ...]
 * ```
 */
export function frameColumns(value: unknown): string[] | undefined {
  const type = typeOfValue(value);
  if (type !== "DataFrame" && type !== "LazyDataFrame") return undefined;
  try {
    return [...(value as pl.DataFrame).columns];
  } catch {
    return undefined;
  }
}
