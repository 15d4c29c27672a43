/**
 * The two option recipes run with other parameters than their defaults, for real: the recipe's
 * cells with the parameters injected as the runner (`npm run recipe`) injects them, executed in
 * the Deno kernel against one sandbox on the run's tiny market (2023-11-20 to 2023-11-28, with
 * ODFL's split on 11-21, SIRI's reverse split on 11-22, HES's merger into CVX on 11-24 and SQ's
 * rename to XYZ on 11-27). Each parameter set runs into something a reader must be told about
 * (an adjusted root holding the positions, an underlying with no options, a holiday, a same-day
 * expiry, a ticker with no event), and the test checks the note it produces, that no cell
 * failed or wrote to stderr, and that no NaN or Infinity is shown as a result. A recipe's sets
 * run one after the other in one kernel (support/parameterSets.ts): a kernel and the workbench
 * loaded once per recipe, not once per set. What the recipes' markdown may say (no measured
 * figure, a sentence before each code cell, the summary last) is checked without a kernel, for
 * every recipe, by test/recipes/prose.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileSandbox } from "../scripts/support/fileSandbox.ts";
import { type Cell, runParameterSets, type SetRun } from "./support/parameterSets.ts";

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("") : v ?? "");

/** One parameter set of a recipe and what its run must say. */
interface Case {
  recipe: "oi-term-structure" | "adjusted-contracts";
  params: Record<string, string>;
  why: string;
  says: RegExp[];
}

const CASES: Case[] = [
  {
    recipe: "oi-term-structure",
    params: { underlying: "ODFL", date: "2023-11-21" },
    why: "the split's ex date: positions sit on the adjusted root",
    says: [
      /Note\.\*\* [\d,]+ contracts .* are open on \*\*ODFL1\*\*, adjusted \(split, 1\.5 new shares per old\).*\*\*the standard root ODFL holds none\*\*/,
      /Note\.\*\* On 2023-11-21 ODFL1 began trading \(split of ODFL/,
      /\*\*0 with open interest\*\*/,
    ],
  },
  {
    recipe: "oi-term-structure",
    params: { underlying: "JPM.PRC", date: "2023-11-22" },
    why: "an underlying with no listed options",
    says: [/Note\.\*\* JPM\.PRC has no option root in the security master/],
  },
  {
    recipe: "oi-term-structure",
    params: { underlying: "AAPL", date: "2023-11-23" },
    why: "a holiday, and a history longer than the data",
    says: [
      /Note\.\*\* 2023-11-23 is not a trading day \(Thanksgiving Day\): .* the trading day before, 2023-11-22/,
      /Note\.\*\* Only 2 days of open interest before 2023-11-22 are in the data/,
    ],
  },
  {
    recipe: "oi-term-structure",
    params: { underlying: "SPY", date: "2023-11-24" },
    why: "a same-day expiry, and an expiry without open interest",
    says: [
      /The expiry on the date itself \([\d,]+ contracts, [\d,]+ open\) expires at today's close/,
      /Calendar check: total variance at the forward/,
    ],
  },
  {
    recipe: "adjusted-contracts",
    params: { splitTicker: "SIRI" },
    why: "the reverse split's series linked",
    says: [
      /series of SIRI on 2023-11-21 are linked to SIRI1 on 2023-11-22 \(0\.25 new shares per old share: 25 shares a contract\)/,
      /Across the split the linked series' implied vols moved by a median \*\*[\d.]+ ± [\d.]+ vol points\*\*/,
      /delisting return of -?[\d.]+%/,
    ],
  },
  {
    recipe: "adjusted-contracts",
    params: { splitTicker: "AAPL", mergerTicker: "CVX", renamedTicker: "MSFT" },
    why: "tickers with no such event",
    says: [
      /Note\.\*\* AAPL had no split in the data \(the splits found: ODFL 1\.5, SIRI 0\.25\)/,
      /Note\.\*\* CVX was not the target of a merger in the data \(targets found: HES\)/,
      /Note\.\*\* MSFT \(security \d+\) never changed its ticker/,
    ],
  },
  {
    recipe: "adjusted-contracts",
    params: { splitTicker: "HES", mergerTicker: "ODFL", renamedTicker: "XYZ" },
    why: "a merger asked as a split, a split as a merger, the new ticker of a rename",
    says: [
      /Note\.\*\* HES had no split in the data/,
      /Note\.\*\* ODFL was not the target of a merger/,
      /SQ resolves to security \d+ up to 2023-11-26/,
      /Asked as SQ: \d+ days; asked as XYZ: \d+ days; the same closes: yes/,
    ],
  },
];

const dir = mkdtempSync(join(tmpdir(), "option-recipes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tiny = fileSandbox();
afterAll(() => tiny.stop());

/** Each case's part of its recipe's run. */
const runs = new Map<Case, SetRun>();

beforeAll(async () => {
  const baseUrl = await tiny.baseUrl();
  const recipes = [...new Set(CASES.map((c) => c.recipe))];
  // One kernel per recipe, both at once: a kernel spends much of its run waiting on the sandbox.
  await Promise.all(recipes.map(async (recipe) => {
    const cases = CASES.filter((c) => c.recipe === recipe);
    const results = await runParameterSets(recipe, cases.map((c) => c.params), { baseUrl, outDir: dir });
    cases.forEach((c, k) => runs.set(c, results[k]));
  }));
}, 600_000);

/** Every shown output of a run as text: markdown, plain text and HTML. */
const shown = (cells: Cell[]) =>
  cells.flatMap((c) => c.outputs ?? []).map((o) => joined(o.text) + Object.values(o.data ?? {}).map(joined).join("\n")).join("\n");

describe.each(CASES)("$recipe with $params ($why)", (c) => {
  it("runs to the end with no error, nothing on stderr, the notes it owes and no NaN or Infinity shown", () => {
    const r = runs.get(c)!;
    expect(r.ran, r.stoppedBy).toBe(true);
    const outputs = r.cells.flatMap((cell) => cell.outputs ?? []);
    expect(outputs.filter((o) => o.output_type === "error")).toEqual([]);
    expect(outputs.filter((o) => o.output_type === "stream" && o.name === "stderr").map((o) => joined(o.text))).toEqual([]);
    const text = shown(r.cells);
    for (const pattern of c.says) expect(text).toMatch(pattern);
    expect(text.match(/.{0,80}\b(NaN|Infinity)\b.{0,40}/g) ?? []).toEqual([]);
  });
});
