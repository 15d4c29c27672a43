/**
 * The two option recipes run with other parameters than their defaults, for real: each run is
 * the recipe runner (`npm run recipe`) executing the notebook in the Deno kernel against one
 * sandbox on the run's tiny market (2023-11-20 to 2023-11-28, with ODFL's split on 11-21, SIRI's
 * reverse split on 11-22, HES's merger into CVX on 11-24 and SQ's rename to XYZ on 11-27). Each
 * parameter set runs into something a reader must be told about (an adjusted root holding the
 * positions, an underlying with no options, a holiday, a same-day expiry, a ticker with no event),
 * and the test checks the note it produces, that no cell failed or wrote to stderr, and that
 * no NaN or Infinity is shown as a result. What the recipes' markdown may say (no measured figure,
 * a sentence before each code cell, the summary last) is checked without a kernel, for every
 * recipe, by test/recipes/prose.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { denoPath } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import { fileSandbox } from "../scripts/support/fileSandbox.ts";

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
}
interface Cell {
  cell_type: string;
  source: string | string[];
  metadata: { tags?: string[] };
  outputs?: Output[];
}
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
    recipe: "oi-term-structure", params: { underlying: "ODFL", date: "2023-11-21" }, why: "the split's ex date: positions sit on the adjusted root",
    says: [/Note\.\*\* [\d,]+ contracts .* are open on \*\*ODFL1\*\*, adjusted \(split, 1\.5 new shares per old\).*\*\*the standard root ODFL holds none\*\*/, /Note\.\*\* On 2023-11-21 ODFL1 began trading \(split of ODFL/, /\*\*0 with open interest\*\*/],
  },
  {
    recipe: "oi-term-structure", params: { underlying: "JPM.PRC", date: "2023-11-22" }, why: "an underlying with no listed options",
    says: [/Note\.\*\* JPM\.PRC has no option root in the security master/],
  },
  {
    recipe: "oi-term-structure", params: { underlying: "AAPL", date: "2023-11-23" }, why: "a holiday, and a history longer than the data",
    says: [/Note\.\*\* 2023-11-23 is not a trading day \(Thanksgiving Day\): .* the trading day before, 2023-11-22/, /Note\.\*\* Only 2 days of open interest before 2023-11-22 are in the data/],
  },
  {
    recipe: "oi-term-structure", params: { underlying: "SPY", date: "2023-11-24" }, why: "a same-day expiry, and an expiry without open interest",
    says: [/The expiry on the date itself \([\d,]+ contracts, [\d,]+ open\) expires at today's close/, /Calendar check: total variance at the forward/],
  },
  {
    recipe: "adjusted-contracts", params: { splitTicker: "SIRI" }, why: "the reverse split's series linked",
    says: [/series of SIRI on 2023-11-21 are linked to SIRI1 on 2023-11-22 \(0\.25 new shares per old share: 25 shares a contract\)/, /Across the split the linked series' implied vols moved by a median \*\*[\d.]+ ± [\d.]+ vol points\*\*/, /delisting return of -?[\d.]+%/],
  },
  {
    recipe: "adjusted-contracts", params: { splitTicker: "AAPL", mergerTicker: "CVX", renamedTicker: "MSFT" }, why: "tickers with no such event",
    says: [/Note\.\*\* AAPL had no split in the data \(the splits found: ODFL 1\.5, SIRI 0\.25\)/, /Note\.\*\* CVX was not the target of a merger in the data \(targets found: HES\)/, /Note\.\*\* MSFT \(security \d+\) never changed its ticker/],
  },
  {
    recipe: "adjusted-contracts", params: { splitTicker: "HES", mergerTicker: "ODFL", renamedTicker: "XYZ" }, why: "a merger asked as a split, a split as a merger, the new ticker of a rename",
    says: [/Note\.\*\* HES had no split in the data/, /Note\.\*\* ODFL was not the target of a merger/, /SQ resolves to security \d+ up to 2023-11-26/, /Asked as SQ: \d+ days; asked as XYZ: \d+ days; the same closes: yes/],
  },
];

const dir = mkdtempSync(join(tmpdir(), "option-recipes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tiny = fileSandbox();
afterAll(() => tiny.stop());

/** The executed notebook of a case and the runner's result, once it has run. */
const runs = new Map<Case, Promise<{ status: number | null; stdout: string; stderr: string; cells: Cell[] }>>();
function execute(c: Case, baseUrl: string) {
  const out = join(dir, `${c.recipe}-${Object.values(c.params).join("-")}`);
  const params = Object.entries(c.params).flatMap(([k, v]) => ["--param", `${k}=${v}`]);
  return run(denoPath(), ["run", "-A", "scripts/recipe.ts", c.recipe, ...params, "--base-url", baseUrl, "--out", out], { timeoutMs: 240_000 })
    .then((r) => ({ ...r, cells: (JSON.parse(readFileSync(join(out, `${c.recipe}.ipynb`), "utf8")) as { cells: Cell[] }).cells }));
}

beforeAll(async () => {
  const baseUrl = await tiny.baseUrl();
  // Two kernels at a time: each run is mostly a kernel waiting on the sandbox or on Polars.
  const queue = [...CASES];
  const lane = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const done = execute(c, baseUrl);
      runs.set(c, done);
      await done.catch(() => undefined);
    }
  };
  await Promise.all([lane(), lane()]);
}, 900_000);

/** Every shown output of a run as text: markdown, plain text and HTML. */
const shown = (cells: Cell[]) => cells.flatMap((c) => c.outputs ?? []).map((o) => joined(o.text) + Object.values(o.data ?? {}).map(joined).join("\n")).join("\n");

describe.each(CASES)("$recipe with $params ($why)", (c) => {
  it("runs to the end with no error, nothing on stderr, the notes it owes and no NaN or Infinity shown", async () => {
    const r = await runs.get(c)!;
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const outputs = r.cells.flatMap((cell) => cell.outputs ?? []);
    expect(outputs.filter((o) => o.output_type === "error")).toEqual([]);
    expect(outputs.filter((o) => o.output_type === "stream" && o.name === "stderr").map((o) => joined(o.text))).toEqual([]);
    const text = shown(r.cells);
    for (const pattern of c.says) expect(text).toMatch(pattern);
    expect(text.match(/.{0,80}\b(NaN|Infinity)\b.{0,40}/g) ?? []).toEqual([]);
  });
});
