/**
 * TypeScript types and signatures as text, from the JSON that `deno doc --json` writes: what
 * Shift+Tab shows (`eqDailyOhlc(tickers?: Symbols | SymbolQuery, query?: SymbolQuery): Promise<DataFrame>`)
 * and the type name a call returns, which completion follows along a chain (`df.filter(…).`).
 */

/** A type as `deno doc --json` describes it (the fields this module reads). */
export interface DocType {
  /** The type as written, when deno doc gives it. */
  repr?: string;
  /** Which of the fields below describes it. */
  kind?: string;
  /** A keyword type: `string`, `number`, `void`, ... */
  keyword?: string;
  /** A named type and its type arguments. */
  typeRef?: { typeName: string; typeParams?: DocType[] | null };
  /** The members of a union. */
  union?: DocType[];
  /** The members of an intersection. */
  intersection?: DocType[];
  /** The element type of an array. */
  array?: DocType;
  /** The element types of a tuple. */
  tuple?: DocType[];
  /** A literal type's value. */
  literal?: { kind: string; string?: string; number?: number; boolean?: boolean };
  /** `keyof T`, `readonly T[]`: the operator and its operand. */
  typeOperator?: { operator: string; tsType: DocType };
  /** A type in parentheses. */
  parenthesized?: DocType;
  /** A function type's parameters and return type. */
  fnOrConstructor?: { params: DocParam[]; tsType: DocType };
  /** An object type's properties (and methods). */
  typeLiteral?: { properties?: { name: string; optional?: boolean; tsType?: DocType }[]; methods?: unknown[] };
  /** `T[K]`: the object type and the index type. */
  indexedAccess?: { objType: DocType; indexType: DocType };
  /** `typeof x`: the name it queries. */
  typeQuery?: string | { exprName?: string };
}

/** A parameter as `deno doc --json` describes it. */
export interface DocParam {
  /** `identifier`, `rest`, `assign`, `object` or `array`. */
  kind: string;
  /** Its name, for an identifier. */
  name?: string;
  /** Whether it may be left out. */
  optional?: boolean;
  /** Its type. */
  tsType?: DocType | null;
  /** The parameter a default value is assigned to (`assign`). */
  left?: DocParam;
  /** The parameter a rest collects into (`rest`). */
  arg?: DocParam;
}

/** The last segment of a qualified type name: `pl.DataFrame` -> `DataFrame`. */
const baseName = (name: string) => name.split(".").at(-1)!;

const MAX = 120;

/**
 * A type as TypeScript writes it, qualified names shortened, long literal types elided.
 *
 * @example
 * ```ts
 * typeText({ kind: "typeRef", typeRef: { typeName: "pl.DataFrame", typeParams: null } }); // "DataFrame"
 * ```
 */
export function typeText(t: DocType | null | undefined): string {
  if (!t) return "unknown";
  const text = render(t);
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}

function render(t: DocType): string {
  switch (t.kind) {
    case "keyword":
      return t.keyword ?? t.repr ?? "unknown";
    case "typeRef": {
      const args = t.typeRef?.typeParams?.length ? `<${t.typeRef.typeParams.map(render).join(", ")}>` : "";
      return `${baseName(t.typeRef?.typeName ?? t.repr ?? "")}${args}`;
    }
    case "union":
      return (t.union ?? []).map(render).join(" | ");
    case "intersection":
      return (t.intersection ?? []).map(render).join(" & ");
    case "array":
      return `${wrap(t.array)}[]`;
    case "tuple":
      return `[${(t.tuple ?? []).map(render).join(", ")}]`;
    case "literal":
      return t.literal?.kind === "string" ? JSON.stringify(t.literal.string) : String(t.literal?.number ?? t.literal?.boolean ?? t.repr);
    case "typeOperator":
      return `${t.typeOperator?.operator} ${render(t.typeOperator!.tsType)}`;
    case "parenthesized":
      return `(${render(t.parenthesized!)})`;
    case "fnOrConstructor":
      return `(${(t.fnOrConstructor?.params ?? []).map(paramText).join(", ")}) => ${render(t.fnOrConstructor!.tsType)}`;
    case "typeLiteral": {
      const props = t.typeLiteral?.properties ?? [];
      return props.length ? `{ ${props.map((p) => `${p.name}${p.optional ? "?" : ""}: ${render(p.tsType ?? {})}`).join("; ")} }` : "{ … }";
    }
    case "indexedAccess":
      return `${render(t.indexedAccess!.objType)}[${render(t.indexedAccess!.indexType)}]`;
    default:
      return t.repr || "…";
  }
}

/** A union or function type inside an array needs parentheses. */
function wrap(t: DocType | undefined): string {
  if (!t) return "unknown";
  const text = render(t);
  return t.kind === "union" || t.kind === "fnOrConstructor" || t.kind === "intersection" ? `(${text})` : text;
}

/**
 * A parameter as TypeScript writes it: `query?: SymbolQuery`, `...names: string[]`.
 *
 * @example
 * ```ts
 * paramText({ kind: "identifier", name: "query", optional: true, tsType: { kind: "typeRef", typeRef: { typeName: "Query" } } }); // "query?: Query"
 * ```
 */
export function paramText(p: DocParam): string {
  if (p.kind === "assign" && p.left) return `${paramText({ ...p.left, optional: true })}`;
  if (p.kind === "rest" && p.arg) return `...${paramText(p.arg)}`;
  if (p.kind === "object") return p.tsType ? `options: ${typeText(p.tsType)}` : "options";
  const type = p.tsType ? `: ${typeText(p.tsType)}` : "";
  return `${p.name ?? "arg"}${p.optional ? "?" : ""}${type}`;
}

/**
 * The name of the type a member returns, for completion along a chain: a type reference's
 * name (a Promise's, or another wrapper's, is its own), undefined for anything else.
 *
 * @example
 * ```ts
 * returnedName({ kind: "typeRef", typeRef: { typeName: "DataFrame", typeParams: null } }); // "DataFrame"
 * ```
 */
export function returnedName(t: DocType | null | undefined): string | undefined {
  if (t?.kind === "parenthesized") return returnedName(t.parenthesized);
  if (t?.kind !== "typeRef" || !t.typeRef) return undefined;
  return baseName(t.typeRef.typeName);
}
