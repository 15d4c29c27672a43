/**
 * Shift+Tab help in a notebook cell: the signature and JSDoc (text and examples) of the
 * function or member at the cursor, or of the call whose arguments the cursor is in, from the
 * help index (the TypeScript sources: the workbench, the kernel helpers, nodejs-polars); for a
 * variable, what it holds (a frame's shape and columns) and its type's documentation.
 */
import type { DataType } from "nodejs-polars";
import { dtypeLabel } from "../display/dtypeLabel.ts";
import type { MediaBundle } from "../display/jupyter.ts";
import { type Chain, CodeScan, utf16Index } from "./codeScan.ts";
import type { DocIndex, MemberDoc, TypeDoc } from "./docIndex.ts";
import { frameColumns, globalValue, memberOf, resolveChain, typeOfValue } from "./resolve.ts";

/** A Jupyter `inspect_reply`'s content. */
export interface InspectReply {
  /** Always `ok`. */
  status: "ok";
  /** Whether there is help for what is under the cursor. */
  found: boolean;
  /** The help, as text and HTML. */
  data: MediaBundle;
  /** Nothing: the protocol requires the field. */
  metadata: Record<string, never>;
}

/** Help as Markdown (JupyterLab's tooltip renders it) and as plain text. */
function helpBundle(signatures: readonly string[], doc?: string, examples: readonly string[] = [], more?: string): MediaBundle {
  const md = [
    `\`\`\`ts\n${signatures.join("\n")}\n\`\`\``,
    doc ?? "",
    more ?? "",
    ...examples.map((e) => `**Example**\n\n\`\`\`ts\n${e}\n\`\`\``),
  ];
  const plain = [signatures.join("\n"), doc ?? "", more ?? "", ...examples.map((e) => `Example:\n${e}`)];
  return { "text/markdown": md.filter(Boolean).join("\n\n"), "text/plain": plain.filter(Boolean).join("\n\n") };
}

const memberHelp = (owner: string | undefined, m: MemberDoc) =>
  helpBundle(m.signatures.map((s) => (owner && owner !== "pl" ? `${owner}.${s}` : owner === "pl" ? `pl.${s}` : s)), m.doc, m.examples);

/** What a variable holds, in a line or two: a frame's shape and columns, a series' name and type. */
function describeValue(value: unknown, type: string | undefined): string | undefined {
  const columns = frameColumns(value);
  if (columns && type === "DataFrame") {
    const frame = value as { height: number; dtypes: DataType[] };
    const dtypes = frame.dtypes.map(dtypeLabel);
    return `${frame.height.toLocaleString("en-US")} rows × ${columns.length} columns: ${
      columns.map((c, i) => `${c} (${dtypes[i]})`).join(", ")
    }`;
  }
  if (columns) return `lazy, columns: ${columns.join(", ")}`;
  if (type === "Series") {
    const s = value as { name: string; dtype: DataType; length: number };
    return `'${s.name}', ${dtypeLabel(s.dtype)}, ${s.length.toLocaleString("en-US")} values`;
  }
  if (type === "Expr") return String(value);
  return undefined;
}

function typeHelp(name: string, t: TypeDoc | undefined, description?: string): MediaBundle {
  const members = t?.members.filter((m) => !m.deprecated).map((m) => m.name) ?? [];
  const more = members.length ? `Members: ${members.slice(0, 40).join(", ")}${members.length > 40 ? ", …" : ""}` : undefined;
  return helpBundle([`${name}${description ? `: ${description}` : ""}`], t?.doc, t?.examples, more);
}

/**
 * The chains the help may be about, nearest first: the word at the cursor (to its end), then
 * the calls whose arguments hold the cursor, innermost first.
 */
function targets(scan: CodeScan, at: number): Chain[] {
  const code = scan.code;
  const out: Chain[] = [];
  const inWord = (i: number) => i >= 0 && i < code.length && /[\w$]/.test(code[i]) && scan.isCode(i);
  if (!scan.stringAt(at) && !scan.inComment(at) && (inWord(at) || inWord(at - 1))) {
    let end = at;
    while (inWord(end)) end++;
    const word = scan.chainBefore(end);
    if (word) out.push(word);
  }
  for (let k = at, depth = 0; depth < 4; depth++) {
    const open = scan.openCall(k);
    if (open < 0) break;
    const call = scan.chainBefore(open);
    if (call) out.push(call);
    k = call?.start ?? open;
  }
  return out;
}

/** The help about one chain, if the index or the value has any. */
function helpFor(index: DocIndex, chain: Chain): MediaBundle | undefined {
  if (chain.steps.length === 0) {
    const value = globalValue(chain.root);
    const exported = index.exports[chain.root];
    if (exported && (!value.found || typeof value.value === "function")) return memberHelp(undefined, exported);
    if (!value.found) return undefined;
    const type = typeOfValue(value.value);
    if (type === "pl") {
      return helpBundle(["pl: nodejs-polars"], "Polars' functions and constructors: pl.col, pl.lit, pl.concat, pl.DataFrame, …");
    }
    return type ? typeHelp(chain.root, index.types[type], describeValue(value.value, type) ?? type) : undefined;
  }
  const owner = resolveChain(index, { ...chain, steps: chain.steps.slice(0, -1) });
  const member = owner && memberOf(index, owner, chain.steps.at(-1)!.name);
  return member ? memberHelp(owner.type, member) : undefined;
}

/**
 * The help at `cursor` (in code points) of a cell's `code`: found, with the signature and
 * documentation, or not found.
 *
 * @example
 * ```ts
 * inspect(index, "wb.data.eqDailyOhlc(", 20).data["text/plain"]; // "DataApi.eqDailyOhlc(tickers?: ..."
 * ```
 */
export function inspect(index: DocIndex, code: string, cursor: number): InspectReply {
  const scan = new CodeScan(code);
  for (const chain of targets(scan, utf16Index(code, cursor))) {
    const data = helpFor(index, chain);
    if (data) return { status: "ok", found: true, data, metadata: {} };
  }
  return { status: "ok", found: false, data: {}, metadata: {} };
}
