/**
 * The recipes read as a paper's appendix: every figure in their prose comes from their outputs.
 * Checked on the notebooks as committed (markdown cells only: what code prints is computed).
 *
 * The rule, for each markdown cell: take out what is not a result, and no ASCII digit may be
 * left. Not a result:
 *
 * - code, fenced or inline (`HORIZON_MINUTES` = `5`, a formula `2·D·(P − M)/M`, a column, a
 *   parameter default, a constant such as `±1.96`): write such numbers in backticks;
 * - link targets and URLs;
 * - a heading's section number (`## 3.`, `### 3.1`), a reference to one (`section 4`) and a
 *   numbered list's marker (`1. `);
 * - dates (`2023-11-01`) and clock times (`09:30`): the calendar and the parameters, not measurements;
 * - a reference's year after an author's name (`Lee and Ready (1991)`, `Bessembinder 2003`,
 *   `Cameron and Miller 2015`, `Jones et al. 2011`), not after a sentence's first word (`In 2023`);
 * - identifiers that start with a letter and contain digits (`ODFL1`, `M5`).
 *
 * So "62 trading days", "0.604 bps", "24.3%" or "three of 14" written with digits fail; such a
 * sentence is printed by a code cell from the outputs instead (`Deno.jupyter.md`), where it
 * changes with the parameters.
 *
 * Two more rules of the appendix: every code cell follows a markdown cell (a sentence saying
 * what it does), and the last section (`## ` heading) is the summary.
 *
 * Recipes not yet rewritten to these rules are listed in `NOT_YET` and run as expected failures
 * (`it.fails`): each must still break a rule. When one passes, its expected failure fails,
 * saying so: take its name out of `NOT_YET`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const RECIPES = join(process.cwd(), "recipes");
/** Recipes still being rewritten (branch `options`): expected to break the rules until then. */
const NOT_YET = new Set<string>([]);

interface Cell {
  cell_type: string;
  source: string | string[];
}
const text = (c: Cell) => (Array.isArray(c.source) ? c.source.join("") : c.source);

/** A markdown cell's text with everything that is not a result taken out (the rule above). */
export function withoutNonResults(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/`[^`\n]*`/g, " ")
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/^(#{1,6}\s+)\d+(\.\d+)*\.?(?=\s)/gm, "$1")
    .replace(/^(\s*)\d+\.(?=\s)/gm, "$1")
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, " ")
    .replace(/\b\d{1,2}:\d{2}\b/g, " ")
    .replace(/\bsections? \d+(\.\d+)*/g, " ")
    .replace(/(?<=(?:\b(?!(?:In|On|At|By|For|From|Since|Until|Before|After|The|Of)\b)[A-Z][a-z]+|\bal\.),? \(?)(?:19|20)\d{2}[a-z]?\b/g, " ")
    .replace(/\b[A-Za-z][A-Za-z_]*\d\w*\b/g, " ");
}

/** Every break of the rules in a notebook, as sentences (none: it passes). */
function breaks(cells: Cell[]): string[] {
  const found: string[] = [];
  cells.forEach((cell, k) => {
    if (cell.cell_type === "markdown") {
      for (const line of withoutNonResults(text(cell)).split("\n")) {
        const figure = line.match(/[^\s]*\d[^\s]*/);
        if (figure) found.push(`cell ${k + 1} (markdown) states a figure: "${figure[0]}" in "${line.trim().slice(0, 120)}"`);
      }
    } else if (cell.cell_type === "code" && cells[k - 1]?.cell_type !== "markdown") {
      found.push(`cell ${k + 1} (code) follows no sentence: "${text(cell).split("\n")[0].slice(0, 80)}"`);
    }
  });
  const sections = cells.flatMap((c) => (c.cell_type === "markdown" ? text(c).split("\n").filter((l) => /^## /.test(l)) : []));
  if (!/^## Summary\b/.test(sections.at(-1) ?? "")) found.push(`the last section is "${sections.at(-1) ?? "(none)"}", not the summary`);
  return found;
}

describe("the rule itself", () => {
  it("keeps measured figures and drops what is not a result", () => {
    const kept = (s: string) => withoutNonResults(s).match(/\d+(\.\d+)?%?/g) ?? [];
    expect(kept("AAPL's effective spread is 0.604 bps over 62 days, 24.3% of it")).toEqual(["0.604", "62", "24.3%"]);
    expect(kept("## 3. Definitions (Lee and Ready (1991); Bessembinder 2003; Hendershott, Jones and Menkveld 2011)")).toEqual([]);
    expect(kept("From 2023-11-01 at 09:30, `HORIZON_MINUTES` = `5`, root ODFL1, [guide](docs/x2.md)\n1. first item")).toEqual([]);
    expect(kept("In 2023 volumes rose, as section 4 shows")).toEqual(["2023"]);
  });

  it("finds a code cell without a sentence and a summary that is not last", () => {
    const md = (s: string): Cell => ({ cell_type: "markdown", source: s });
    const code: Cell = { cell_type: "code", source: "1 + 1" };
    expect(breaks([md("# T"), code, code, md("## Summary\nAll."), md("## Appendix")])).toEqual([
      'cell 3 (code) follows no sentence: "1 + 1"',
      'the last section is "## Appendix", not the summary',
    ]);
  });
});

describe("every recipe's prose carries no measured figure, each code cell follows a sentence, the summary comes last", () => {
  const names = readdirSync(RECIPES).filter((f) => f.endsWith(".ipynb")).map((f) => f.replace(/\.ipynb$/, "")).sort();

  it("finds the three recipes", () => {
    expect(names).toEqual(expect.arrayContaining(["intraday-spread", "oi-term-structure", "adjusted-contracts"]));
  });

  for (const name of names) {
    const check = () => {
      const cells: Cell[] = JSON.parse(readFileSync(join(RECIPES, `${name}.ipynb`), "utf8")).cells;
      expect(breaks(cells), `recipes/${name}.ipynb`).toEqual([]);
    };
    if (NOT_YET.has(name)) it.fails(`${name} (expected to fail until its rewrite lands: remove it from NOT_YET then)`, check);
    else it(name, check);
  }
});
