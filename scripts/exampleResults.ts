/**
 * The results JSDoc examples write after a line, `expression; // <result>`, read and compared
 * with what the line gives when the example runs (scripts/exampleRun.ts). The written result is
 * a JavaScript literal at the start of the comment; what follows it is prose and is not read
 * (`// 0.19527: deltas 0.5398 and 0.4556 straddle 0.5`). A comment that starts with no literal
 * (`// ClosePrice before the ex date divided by 1.5`) is not a written result.
 *
 * - A number holds to the digits written: `// 0.3989` and `// ≈0.4` are the value rounded
 *   (0.39894228 passes both); `// 0.2378...` its first digits or rounded (0.23789 passes).
 * - A string ending in `...` or `…` is a prefix: `// "SQ was renamed XYZ ..."`.
 * - An array whose last element is `...` is a prefix: `// ["2023-12-22", ...]`.
 * - An object names some of the fields: `// { units: 8, pages: 1 }`, each compared as above.
 */

/** A written result, parsed: a value, and whether it is approximate (a number's digits, `...`). */
type Written =
  | { kind: "number"; value: number; digits: number; truncated: boolean }
  | { kind: "string"; value: string; prefix: boolean }
  | { kind: "literal"; value: boolean | null | undefined }
  | { kind: "array"; items: Written[]; prefix: boolean }
  | { kind: "object"; fields: [string, Written][] };

/** Reads a literal at the start of `text`; undefined when none starts there. */
function parseWritten(text: string): Written | undefined {
  let at = 0;
  const space = () => {
    while (/\s/.test(text[at] ?? "")) at++;
  };
  const ellipsis = (): boolean => {
    space();
    if (text.startsWith("...", at)) return (at += 3), true;
    if (text.startsWith("…", at)) return (at += 1), true;
    return false;
  };
  const value = (): Written | undefined => {
    space();
    const rest = text.slice(at);
    const number = /^≈?(-?\d+(?:\.(\d+))?(?:e[-+]?\d+)?)/i.exec(rest);
    if (number) {
      at += number[0].length;
      const truncated = ellipsis();
      const exponent = /e([-+]?\d+)/i.exec(number[1]);
      return { kind: "number", value: Number(number[1]), digits: (number[2]?.length ?? 0) - Number(exponent?.[1] ?? 0), truncated };
    }
    const string = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    if (string) {
      at += string[0].length;
      const raw = JSON.parse(string[0]) as string;
      const prefix = /(?:\.\.\.|…)$/.test(raw);
      return { kind: "string", value: prefix ? raw.replace(/\s*(?:\.\.\.|…)$/, "") : raw, prefix };
    }
    for (const [word, literal] of [["true", true], ["false", false], ["null", null], ["undefined", undefined]] as const) {
      if (new RegExp(`^${word}\\b`).test(rest)) return (at += word.length), { kind: "literal", value: literal };
    }
    if (rest.startsWith("[")) {
      at++;
      const items: Written[] = [];
      for (;;) {
        space();
        if (text[at] === "]") return at++, { kind: "array", items, prefix: false };
        if (ellipsis()) {
          space();
          return text[at] === "]" ? (at++, { kind: "array", items, prefix: true }) : undefined;
        }
        const item = value();
        if (!item) return undefined;
        items.push(item);
        space();
        if (text[at] === ",") at++;
        else if (text[at] !== "]") return undefined;
      }
    }
    if (rest.startsWith("{")) {
      at++;
      const fields: [string, Written][] = [];
      for (;;) {
        space();
        if (text[at] === "}") return at++, { kind: "object", fields };
        if (ellipsis()) continue;
        const key = /^(?:"([^"]+)"|([A-Za-z_$][\w$]*))\s*:/.exec(text.slice(at));
        if (!key) return undefined;
        at += key[0].length;
        const field = value();
        if (!field) return undefined;
        fields.push([key[1] ?? key[2], field]);
        space();
        if (text[at] === ",") at++;
        else if (text[at] !== "}") return undefined;
      }
    }
    return undefined;
  };
  const written = value();
  if (!written) return undefined;
  // A literal must end the comment or be followed by prose after a separator, not run into a word
  // (`// 2023-11-20T00:00:00.000Z` is a date's text, not the number 2023).
  return /^(?:$|[\s:;,(])/.test(text.slice(at)) ? written : undefined;
}

/** Why `actual` differs from `written`, or undefined when it matches. */
function mismatch(written: Written, actual: unknown, path: string): string | undefined {
  const at = path ? ` at ${path}` : "";
  switch (written.kind) {
    case "number": {
      if (typeof actual !== "number") return `expected a number${at}, got ${show(actual)}`;
      // The value rounded to the digits written; followed by `...`, its first digits will do too.
      const step = 10 ** -written.digits;
      const slack = Number.EPSILON * Math.abs(written.value) * 4;
      const off = written.truncated ? Math.abs(actual) - Math.abs(written.value) : Math.abs(actual - written.value);
      const rounded = Math.abs(actual - written.value) <= step / 2 + slack;
      const ok = rounded || (written.truncated && Math.sign(actual) === Math.sign(written.value) && off >= -slack && off < step + slack);
      return ok ? undefined : `expected ${written.value}${written.truncated ? "..." : ""}${at} (${written.digits} decimals), got ${actual}`;
    }
    case "string": {
      if (typeof actual !== "string") return `expected a string${at}, got ${show(actual)}`;
      const ok = written.prefix ? actual.startsWith(written.value) : actual === written.value;
      return ok ? undefined : `expected ${JSON.stringify(written.value)}${written.prefix ? "..." : ""}${at}, got ${JSON.stringify(actual)}`;
    }
    case "literal":
      return actual === written.value ? undefined : `expected ${String(written.value)}${at}, got ${show(actual)}`;
    case "array": {
      if (!Array.isArray(actual)) return `expected an array${at}, got ${show(actual)}`;
      if (written.prefix ? actual.length < written.items.length : actual.length !== written.items.length) {
        return `expected ${written.prefix ? "at least " : ""}${written.items.length} items${at}, got ${actual.length}: ${show(actual)}`;
      }
      for (const [i, item] of written.items.entries()) {
        const why = mismatch(item, actual[i], `${path}[${i}]`);
        if (why) return why;
      }
      return undefined;
    }
    case "object": {
      if (!actual || typeof actual !== "object") return `expected an object${at}, got ${show(actual)}`;
      for (const [key, field] of written.fields) {
        const why = mismatch(field, (actual as Record<string, unknown>)[key], `${path}.${key}`);
        if (why) return why;
      }
      return undefined;
    }
  }
}

/** A value, short, for a message. */
function show(value: unknown): string {
  try {
    const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return String(value);
  }
}

/**
 * Whether the comment after a line writes a result (a literal at its start).
 *
 * @example
 * ```ts
 * writesResult('"10 GiB"'); // true
 * writesResult("a cell ending in a frame shows its table"); // false
 * ```
 */
export function writesResult(comment: string): boolean {
  return parseWritten(comment) !== undefined;
}

/**
 * Compares what a line gave with the result its comment writes: undefined when they agree, else
 * why not; undefined as well when the comment writes no result.
 *
 * @example
 * ```ts
 * resultMismatch("0.3989 (the density at 0)", 0.3989422804014327); // undefined
 * resultMismatch('["AAPL", ...]', ["MSFT"]); // 'expected "AAPL" at [0], got "MSFT"'
 * ```
 */
export function resultMismatch(comment: string, actual: unknown): string | undefined {
  const written = parseWritten(comment);
  return written ? mismatch(written, actual, "") : undefined;
}
