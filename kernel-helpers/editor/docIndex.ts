/**
 * The help and completion index: every public class, interface and function of the notebook
 * module (notebook.ts: the workbench and these helpers) and of nodejs-polars (its .d.ts files
 * ship JSDoc), as `deno doc --json` reads them from the TypeScript sources, reduced to what
 * the editor needs: each type's public members in declaration order (inherited ones after,
 * generic returns resolved: `Expr.add()` returns `Expr`), their signatures, JSDoc text and
 * examples, and the type each member gives, so completion can follow `df.filter(…).`.
 *
 * Built by `node scripts/setup.mjs --jupyter` (and by the kernel when a source changed since),
 * into `.cache/editor/doc-index.json`.
 */
import { type DocParam, type DocType, paramText, returnedName, typeText } from "./typeText.ts";

/** One member of a type, one exported function, or one member of Polars' `pl` namespace. */
export interface MemberDoc {
  /** The member's name. */
  name: string;
  /** What it is. */
  kind: "method" | "property" | "function" | "class" | "variable";
  /** One per overload: `name(params): Return`, or `name: Type` for a property. */
  signatures: string[];
  /** The JSDoc text, without its tags. */
  doc?: string;
  /** The code of its `@example` blocks. */
  examples?: string[];
  /** The named type it gives (a property's type, a method's return type), for completion along a chain. */
  returns?: string;
  /** `@deprecated`: shown by Shift+Tab, left out of completion. */
  deprecated?: boolean;
}

/** A class or interface: its JSDoc and its public members, its own first, in declaration order. */
export interface TypeDoc {
  /** The type's name. */
  name: string;
  /** The JSDoc text, without its tags. */
  doc?: string;
  /** The code of its `@example` blocks. */
  examples?: string[];
  /** Its public members, its own first, in declaration order. */
  members: MemberDoc[];
}

/** The index: types by name, the notebook module's exports, Polars' `pl` namespace. */
export interface DocIndex {
  /** The index's format: an index of another version is built again. */
  version: number;
  /** The source files read (absolute paths) and their modification times, to tell a stale index. */
  sources: Record<string, number>;
  /** Classes and interfaces by name. */
  types: Record<string, TypeDoc>;
  /** What notebook.ts exports that is not a type: `connect`, `timeSeriesChart`, ... */
  exports: Record<string, MemberDoc>;
  /** Polars' `pl.` functions and constructors: `col`, `lit`, `concat`, `DataFrame`, ... */
  polars: Record<string, MemberDoc>;
}

/** Bumped when the index's shape changes: an index of another version is rebuilt. */
export const DOC_INDEX_VERSION = 1;

/** A JSDoc comment as `deno doc --json` gives it. */
export interface JsDoc {
  /** Its text, without the tags. */
  doc?: string;
  /** Its tags (`@example`, `@deprecated`, ...), each with its text. */
  tags?: { kind: string; doc?: string }[];
}

/** A class's or an interface's member as `deno doc --json` gives it (the fields read here). */
export interface DocMember {
  /** The member's name. */
  name: string;
  /** `method`, `getter`, `setter`, or absent for a property. */
  kind?: string;
  /** Its JSDoc, when it has one. */
  jsDoc?: JsDoc;
  /** `private` or `protected` members are left out. */
  accessibility?: string | null;
  /** Static members are left out. */
  isStatic?: boolean;
  /** A property's type. */
  tsType?: DocType | null;
  /** An interface method's parameters. */
  params?: DocParam[];
  /** An interface method's return type. */
  returnType?: DocType | null;
  /** A class method's parameters and return type. */
  functionDef?: { params: DocParam[]; returnType?: DocType | null };
  /** Where it is declared. */
  location?: { filename: string; line: number };
}

/** A node of `deno doc --json` (the fields read here). */
export interface DocNode {
  /** The symbol's name. */
  name: string;
  /** `function`, `class`, `interface`, `variable`, ... */
  kind: string;
  /** `export` for what the module exports. */
  declarationKind?: string;
  /** Its JSDoc, when it has one. */
  jsDoc?: JsDoc;
  /** Where it is declared. */
  location: { filename: string; line: number };
  /** A function's parameters and return type. */
  functionDef?: { params: DocParam[]; returnType?: DocType | null };
  /** A variable's type. */
  variableDef?: { tsType?: DocType | null };
  /** A class's base and members. */
  classDef?: { extends?: string | null; properties: DocMember[]; methods: DocMember[] };
  /** An interface's bases, type parameters and members. */
  interfaceDef?: { extends: DocType[]; typeParams: { name: string }[]; properties: DocMember[]; methods: DocMember[] };
}

const tagsOf = (js: JsDoc | undefined, kind: string) => (js?.tags ?? []).filter((t) => t.kind === kind);
const examplesOf = (js: JsDoc | undefined) =>
  tagsOf(js, "example").map((t) => (t.doc ?? "").replace(/^```\w*\n?|\n?```$/g, "").trim()).filter(Boolean);
const textOf = (js: JsDoc | undefined) => js?.doc?.replace(/\n?_{3,}\s*$/, "").trim() || undefined;
/** Members a user has no business with: private, static, internal, symbols, `_underscored`. */
const hidden = (m: DocMember) =>
  m.accessibility === "private" || m.accessibility === "protected" || m.isStatic === true ||
  tagsOf(m.jsDoc, "internal").length > 0 || /^[[#_]/.test(m.name) || m.name === "constructor" || m.name === "inspect" ||
  m.name === "INSPECT_SYMBOL";

/** One member, generic type parameters of an inherited one replaced by the heir's (`T` -> `Expr`). */
function memberDoc(m: DocMember, generics: Record<string, string>): MemberDoc {
  const params = m.functionDef?.params ?? m.params;
  const ret = m.functionDef ? m.functionDef.returnType : m.returnType;
  const isProperty = m.kind === undefined || m.kind === "property" || m.kind === "getter";
  const type = isProperty ? (m.kind === "getter" ? ret : m.tsType) : ret;
  const named = returnedName(type);
  const sub = (text: string) => text.replace(/\b[A-Z]\w*\b/g, (word) => generics[word] ?? word);
  const signature = isProperty
    ? `${m.name}: ${sub(typeText(type))}`
    : `${m.name}(${(params ?? []).map(paramText).join(", ")}): ${sub(typeText(type))}`;
  return {
    name: m.name,
    kind: isProperty ? "property" : "method",
    signatures: [signature],
    doc: textOf(m.jsDoc),
    examples: examplesOf(m.jsDoc),
    returns: named ? generics[named] ?? named : undefined,
    deprecated: tagsOf(m.jsDoc, "deprecated").length > 0 || undefined,
  };
}

/** Appends `m` to `members`, or its signature to the overload already there. */
function addMember(members: MemberDoc[], m: MemberDoc): void {
  const same = members.find((x) => x.name === m.name);
  if (!same) return void members.push(m);
  if (!same.signatures.includes(m.signatures[0])) same.signatures.push(m.signatures[0]);
  same.doc ??= m.doc;
  if (!same.examples?.length) same.examples = m.examples;
  same.returns ??= m.returns;
}

function ownMembers(node: DocNode, generics: Record<string, string>): MemberDoc[] {
  const def = node.classDef ?? node.interfaceDef!;
  const all = [...def.properties, ...def.methods].filter((m) => !hidden(m));
  all.sort((a, b) => (a.location?.line ?? 0) - (b.location?.line ?? 0));
  const members: MemberDoc[] = [];
  for (const m of all) addMember(members, memberDoc(m, generics));
  return members;
}

/** A type's members, its own first, then those of what it extends (classes and interfaces alike). */
function typeMembers(name: string, nodes: Map<string, DocNode>, generics: Record<string, string>, seen: Set<string>): MemberDoc[] {
  const node = nodes.get(name);
  if (!node || seen.has(name)) return [];
  seen.add(name);
  const members = ownMembers(node, generics);
  const parents: { name: string; args: string[] }[] = node.classDef?.extends
    ? [{ name: node.classDef.extends, args: [] }]
    : (node.interfaceDef?.extends ?? []).map((e) => ({
      name: returnedName(e) ?? "",
      args: (e.typeRef?.typeParams ?? []).map((a) => returnedName(a) ?? ""),
    }));
  for (const parent of parents) {
    const params = nodes.get(parent.name)?.interfaceDef?.typeParams ?? [];
    const map = Object.fromEntries(params.map((p, i) => [p.name, generics[parent.args[i]] ?? parent.args[i]]).filter(([, v]) => v));
    for (const m of typeMembers(parent.name, nodes, map, seen)) if (!members.some((x) => x.name === m.name)) members.push(m);
  }
  return members;
}

/** A function or variable node as a member of the module (or of `pl`). */
function exportDoc(node: DocNode): MemberDoc {
  if (node.kind === "function") {
    const f = node.functionDef!;
    return {
      name: node.name,
      kind: "function",
      signatures: [`${node.name}(${f.params.map(paramText).join(", ")}): ${typeText(f.returnType)}`],
      doc: textOf(node.jsDoc),
      examples: examplesOf(node.jsDoc),
      returns: returnedName(f.returnType),
      deprecated: tagsOf(node.jsDoc, "deprecated").length > 0 || undefined,
    };
  }
  const kind = node.kind === "class" ? "class" : "variable";
  return {
    name: node.name,
    kind,
    signatures: [kind === "class" ? `class ${node.name}` : `${node.name}: ${typeText(node.variableDef?.tsType)}`],
    doc: textOf(node.jsDoc),
    examples: examplesOf(node.jsDoc),
  };
}

/**
 * The index from the nodes of `deno doc --json` over notebook.ts (`module`) and over
 * nodejs-polars' declaration files (`polars`).
 *
 * @example
 * ```ts
 * const index = indexFromDocs(moduleNodes, polarsNodes, {});
 * index.types.Workbench.members.map((m) => m.name); // ["account", "meta", "data", ...]
 * ```
 */
export function indexFromDocs(module: readonly DocNode[], polars: readonly DocNode[], sources: Record<string, number>): DocIndex {
  const typeNodes = new Map<string, DocNode>();
  for (const node of [...module, ...polars]) {
    if ((node.kind === "class" || node.kind === "interface") && !typeNodes.has(node.name)) typeNodes.set(node.name, node);
  }
  const types: Record<string, TypeDoc> = {};
  for (const [name, node] of typeNodes) {
    types[name] = { name, doc: textOf(node.jsDoc), examples: examplesOf(node.jsDoc), members: typeMembers(name, typeNodes, {}, new Set()) };
  }
  const exports: Record<string, MemberDoc> = {};
  for (const node of module) {
    if (["function", "variable", "class"].includes(node.kind) && node.declarationKind === "export") {
      if (exports[node.name]) addMember([exports[node.name]], exportDoc(node));
      else exports[node.name] = exportDoc(node);
    }
  }
  const pl: Record<string, MemberDoc> = {};
  for (const node of polars) {
    if (!["function", "variable"].includes(node.kind) || node.declarationKind !== "export") continue;
    if (pl[node.name]) addMember([pl[node.name]], exportDoc(node));
    else pl[node.name] = exportDoc(node);
  }
  return { version: DOC_INDEX_VERSION, sources, types, exports, polars: pl };
}
