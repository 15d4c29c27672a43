/**
 * Reading a cell's code around the cursor, as completion and Shift+Tab need it: where strings
 * and comments are, the member chain before a dot (`daily.filter(…).sort("x").` is the root
 * `daily` and the steps `filter(…)`, `sort(…)`), and the calls that enclose a position. Only
 * reads text: nothing here evaluates anything.
 */

/** One step of a member chain: `.name`, or `.name(…)` when `call`. */
export interface Step {
  /** The member's name. */
  name: string;
  /** Whether the member is called: `.name(…)`. */
  call: boolean;
}

/** A member chain: the identifier it starts from and the steps after it. */
export interface Chain {
  /** The identifier the chain starts from. */
  root: string;
  /** The members after it, in order. */
  steps: Step[];
  /** Where the chain starts in the code (UTF-16 index). */
  start: number;
}

/** Where strings and comments are in a cell's code. */
export class CodeScan {
  /** For each UTF-16 index: 0 code, 1 string or template text, 2 comment. */
  readonly #kind: Uint8Array;
  /** For each cursor position (before index i): the opening quote of the string literal it is inside, or -1. */
  readonly #stringStart: Int32Array;

  /** Scans `code` once; the questions after it are lookups. */
  constructor(readonly code: string) {
    this.#kind = new Uint8Array(code.length + 1);
    this.#stringStart = new Int32Array(code.length + 2).fill(-1);
    let i = 0;
    while (i < code.length) {
      const c = code[i];
      if (c === "/" && code[i + 1] === "/") {
        const end = code.indexOf("\n", i);
        const stop = end < 0 ? code.length : end;
        this.#kind.fill(2, i, stop);
        i = stop;
      } else if (c === "/" && code[i + 1] === "*") {
        const end = code.indexOf("*/", i + 2);
        const stop = end < 0 ? code.length : end + 2;
        this.#kind.fill(2, i, stop);
        i = stop;
      } else if (c === '"' || c === "'" || c === "`") {
        let j = i + 1;
        while (j < code.length && code[j] !== c && !(c !== "`" && code[j] === "\n")) j += code[j] === "\\" ? 2 : 1;
        const stop = Math.min(j, code.length);
        this.#kind.fill(1, i + 1, stop);
        // A cursor is inside from just after the opening quote to just before the closing one (the end, when unclosed).
        this.#stringStart.fill(i, i + 1, stop + 1);
        i = j + 1;
      } else i++;
    }
  }

  /** The string literal a cursor at `at` is inside (its opening quote and its text up to the cursor), if any. */
  stringAt(at: number): { quote: number; text: string } | undefined {
    const quote = this.#stringStart[at] ?? -1;
    return quote < 0 ? undefined : { quote, text: this.code.slice(quote + 1, at) };
  }

  /** Whether a cursor at `at` is inside a comment. */
  inComment(at: number): boolean {
    return at > 0 && this.#kind[at - 1] === 2 && !this.code.slice(0, at).endsWith("*/");
  }

  /** Whether index `i` is code (not inside a string or a comment). */
  isCode(i: number): boolean {
    return this.#kind[i] === 0;
  }

  /** The index before `i` that is not white space or a comment, or -1. */
  back(i: number): number {
    let j = i - 1;
    while (j >= 0 && (this.#kind[j] === 2 || (this.#kind[j] === 0 && /\s/.test(this.code[j])))) j--;
    return j;
  }

  /** The `(` or `[` that opens the group closed at `close`, or -1. */
  opening(close: number): number {
    let depth = 0;
    for (let j = close; j >= 0; j--) {
      if (!this.isCode(j)) continue;
      const c = this.code[j];
      if (c === ")" || c === "]" || c === "}") depth++;
      else if (c === "(" || c === "[" || c === "{") {
        depth--;
        if (depth === 0) return j;
      }
    }
    return -1;
  }

  /** The innermost `(` still open at `at` (the call whose arguments hold `at`), or -1. */
  openCall(at: number): number {
    let depth = 0;
    for (let j = at - 1; j >= 0; j--) {
      if (!this.isCode(j)) continue;
      const c = this.code[j];
      if (c === ")" || c === "]" || c === "}") depth++;
      else if (c === "(" || c === "[" || c === "{") {
        if (depth === 0) {
          if (c === "(") return j;
          if (c === "{" || c === "[") continue; // an options object or a list inside the call
        } else depth--;
      } else if (depth === 0 && c === ";") return -1;
    }
    return -1;
  }

  /**
   * The member chain that ends just before `end` (exclusive): `daily.filter(…).sort` read
   * backwards. Undefined when what precedes is not a chain of identifiers and calls.
   */
  chainBefore(end: number): Chain | undefined {
    const steps: Step[] = [];
    let j = this.back(end);
    for (;;) {
      if (j < 0) return undefined;
      let call = false;
      if (this.code[j] === ")") {
        const open = this.opening(j);
        if (open < 0) return undefined;
        call = true;
        j = this.back(open);
        if (j < 0) return undefined;
      }
      if (!/[\w$]/.test(this.code[j]) || !this.isCode(j)) return undefined;
      let start = j;
      while (start > 0 && /[\w$]/.test(this.code[start - 1]) && this.isCode(start - 1)) start--;
      const name = this.code.slice(start, j + 1);
      if (/^\d/.test(name)) return undefined;
      const before = this.back(start);
      if (before >= 0 && this.code[before] === ".") {
        steps.unshift({ name, call });
        const dot = before > 0 && this.code[before - 1] === "?" ? before - 1 : before;
        j = this.back(dot);
        continue;
      }
      if (call) return undefined; // a chain starts at an identifier, not at a call: `f().x`
      return { root: name, steps, start };
    }
  }
}

/**
 * UTF-16 index of a Jupyter cursor position, which counts Unicode code points.
 *
 * @example
 * ```ts
 * utf16Index("é😀x", 2); // 3
 * ```
 */
export function utf16Index(code: string, codePoints: number): number {
  let i = 0;
  for (let n = 0; n < codePoints && i < code.length; n++) i += (code.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  return i;
}

/**
 * Code points before UTF-16 index `index` (the position Jupyter counts).
 *
 * @example
 * ```ts
 * codePointIndex("é😀x", 3); // 2
 * ```
 */
export function codePointIndex(code: string, index: number): number {
  return [...code.slice(0, index)].length;
}
