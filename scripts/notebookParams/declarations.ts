/**
 * Reads the declarations of a parameters cell: `const name = <literal>;` (or `let`, `var`,
 * with an optional type annotation), one per statement. Other statements are ignored.
 */

type Kind = "number" | "string" | "boolean" | "array" | "json";

export interface Declaration {
  name: string;
  keyword: "const" | "let" | "var";
  /** Offset of the keyword in the cell's source. */
  offset: number;
  /** The default as written in the cell. */
  text: string;
  /** The default's value, when it is a literal (JSON, or JS with single quotes and trailing commas). */
  value?: unknown;
  kind: Kind;
}

interface Statement {
  start: number;
  /** The statement with its comments blanked out (same length, so offsets hold). */
  text: string;
}

const DECLARATION = /^(const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*([\s\S]*?)\s*;?\s*$/;

/**
 * The declarations in a cell's source, in order.
 *
 * @example
 * declarations('const ticker = "AAPL";\nlet minutes = 30; // regular hours')
 * // [{ name: "ticker", kind: "string", value: "AAPL", ... }, { name: "minutes", kind: "number", value: 30, ... }]
 */
export function declarations(source: string): Declaration[] {
  const out: Declaration[] = [];
  for (const { start, text } of statements(source)) {
    const m = DECLARATION.exec(text);
    if (!m) continue;
    const value = literalValue(m[3]);
    out.push({
      name: m[2],
      keyword: m[1] as Declaration["keyword"],
      offset: start,
      text: m[3],
      value: value.ok ? value.value : undefined,
      kind: value.ok ? kindOf(value.value) : "json",
    });
  }
  return out;
}

function kindOf(value: unknown): Kind {
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "number" || type === "string" || type === "boolean" ? type : "json";
}

/** Splits source into top-level statements: at `;`, or at a line end that continues nothing. */
function statements(source: string): Statement[] {
  const out: Statement[] = [];
  const chars = source.split(""); // the source with comments blanked out
  let depth = 0;
  let start = -1;
  const finish = (end: number) => {
    if (start >= 0) out.push({ start, text: chars.slice(start, end).join("").trimEnd() });
    start = -1;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      i = blank(chars, i, end < 0 ? source.length : end) - 1;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      i = blank(chars, i, end < 0 ? source.length : end + 2) - 1;
      continue;
    }
    if (start < 0 && /\s/.test(c)) continue;
    if (start < 0) start = i;
    if (c === '"' || c === "'" || c === "`") {
      i = stringEnd(source, i) - 1;
    } else if ("([{".includes(c)) {
      depth++;
    } else if (")]}".includes(c)) {
      depth = Math.max(0, depth - 1);
    } else if (depth === 0 && c === ";") {
      finish(i + 1);
    } else if (depth === 0 && c === "\n" && !/[=,+\-*/|&?:(]\s*$/.test(chars.slice(start, i).join(""))) {
      finish(i);
    }
  }
  finish(source.length);
  return out;
}

function blank(chars: string[], from: number, to: number): number {
  for (let j = from; j < to; j++) if (chars[j] !== "\n") chars[j] = " ";
  return to;
}

/** Index just past the string literal opening at `i`. */
function stringEnd(source: string, i: number): number {
  const quote = source[i];
  for (let j = i + 1; j < source.length; j++) {
    if (source[j] === "\\") j++;
    else if (source[j] === quote) return j + 1;
  }
  return source.length;
}

/** A single-quoted or template string's body as a JSON string (escapes other than quotes kept). */
function jsonString(body: string, quote: string): string {
  return `"${body.replace(/\\([\s\S])|"|\n/g, (m, escaped) => (m === '"' ? '\\"' : m === "\n" ? "\\n" : escaped === quote ? quote : m))}"`;
}

/**
 * The value of a literal written in TypeScript: JSON, plus single-quoted strings, plain
 * template strings, unquoted keys and trailing commas. Anything else (an expression) is not a
 * literal.
 */
export function literalValue(text: string): { ok: true; value: unknown } | { ok: false } {
  // Outside strings: drop trailing commas, quote bare keys.
  const plain = (code: string) => code.replace(/,(\s*[\]}])/g, "$1").replace(/([{,]\s*)([A-Za-z_$][\w$]*)(\s*:)/g, '$1"$2"$3');
  let json = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "'" && c !== "`" && c !== '"') continue;
    const end = stringEnd(text, i);
    const body = text.slice(i + 1, end - 1);
    if (c === "`" && body.includes("${")) return { ok: false };
    json += plain(text.slice(from, i)) + (c === '"' ? text.slice(i, end) : jsonString(body, c));
    from = end;
    i = end - 1;
  }
  try {
    return { ok: true, value: JSON.parse(json + plain(text.slice(from))) };
  } catch {
    return { ok: false };
  }
}
