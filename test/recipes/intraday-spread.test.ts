/**
 * The intraday-spread recipe run for real with other parameters (its cells, the parameters
 * injected as the runner `npm run recipe` injects them, executed in the Deno kernel), on the run's tiny market (2023-11-20 to 2023-11-28): a rename (SQ became XYZ on
 * 2023-11-27), a split and a delisting by merger with a holiday inside the range (ODFL split
 * 3-for-2 on 2023-11-21, HES merged into CVX after 2023-11-23, Thanksgiving), a range that is a
 * holiday only, and an underlying with no data in its range (HES after its merger). Each run must
 * succeed, print the note its parameters call for, and show no NaN anywhere a result is shown.
 * The four sets run one after the other in one kernel (support/parameterSets.ts): a kernel and
 * the workbench loaded once, not once per set. The defaults' range (2023-11-01 to 2024-01-31) is
 * the demo's: the demo runs it (test/notebooks/notebooks.test.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileSandbox } from "../scripts/support/fileSandbox.ts";
import { runParameterSets, type SetRun } from "./support/parameterSets.ts";

const sandbox = fileSandbox();
afterAll(() => sandbox.stop());
const dir = mkdtempSync(join(tmpdir(), "intraday-spread-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("") : v ?? "");

/** The parameter sets, by name. */
const SETS: Record<string, Record<string, string>> = {
  rename: { tickers: '["SQ"]', start: "2023-11-20", end: "2023-11-28" },
  events: { tickers: '["ODFL","HES"]', start: "2023-11-20", end: "2023-11-24" },
  holiday: { tickers: '["AAPL"]', start: "2023-11-23", end: "2023-11-23" },
  noData: { tickers: '["HES"]', start: "2023-11-24", end: "2023-11-28" },
};

/** What one set's run showed: every output's markdown, and every output's text (markdown, plain, HTML). */
function seen(run: SetRun) {
  const outputs = run.cells.flatMap((c) => c.outputs ?? []);
  const markdown = outputs.map((o) => joined(o.data?.["text/markdown"])).join("\n");
  const shown = outputs.map((o) => [joined(o.text), ...Object.values(o.data ?? {}).map(joined)].join("\n")).join("\n");
  const errors = outputs.filter((o) => o.output_type === "error").map((o) => `${o.ename}: ${o.evalue}`);
  return { run, markdown, shown, errors };
}
type Run = ReturnType<typeof seen>;

describe("intraday-spread with other parameters on the tiny market", () => {
  const runs: Record<string, Run> = {};
  beforeAll(async () => {
    const names = Object.keys(SETS);
    // The lake in the test's own folder, not the repository's .cache.
    const sets = names.map((name) => ({ ...SETS[name], lake: join(dir, "lake") }));
    const results = await runParameterSets("intraday-spread", sets, { baseUrl: await sandbox.baseUrl(), outDir: dir });
    names.forEach((name, k) => (runs[name] = seen(results[k])));
  }, 400_000);

  it("every run succeeds with no error output and shows no NaN", () => {
    for (const [name, r] of Object.entries(runs)) {
      expect(r.run.ran, `${name}: ${r.run.stoppedBy}`).toBe(true);
      expect(r.errors, name).toEqual([]);
      expect(r.shown, name).not.toMatch(/\bNaN\b/);
    }
  });

  it("a rename: SQ is followed across to XYZ and measured on every trading day, with a note", () => {
    const { markdown } = runs.rename;
    expect(markdown).toContain(
      "SQ was renamed XYZ from 2023-11-27 (one security, SecId 100013): its days from then are fetched as XYZ, so SQ's figures cover 6 trading days of 6, not the 4 days under SQ alone.",
    );
    expect(markdown).toContain("2023-11-23 is Thanksgiving Day, an exchange holiday");
    expect(markdown).toMatch(/\*\*SQ\*\* over 6 day\(s\): effective spread \d+\.\d{3} ± \d+\.\d{3} bps/);
    expect(markdown).toContain("Every planned ticker-day had trades to measure.");
  });

  it("a split, a merger and a holiday in one range: a note for each, the merged stock measured up to its last day", () => {
    const { markdown } = runs.events;
    expect(markdown).toContain("ODFL split 3-for-2 (its adjusted option root ODFL1 delivers 150 ODFL) with ex date 2023-11-21");
    expect(markdown).toMatch(
      /HES stops trading after 2023-11-23, its last day in the equity lookup file \(a merger: OCC's adjusted option root HES1 delivers \d+ CVX/,
    );
    expect(markdown).toContain("3 trading days of 4 can be measured");
    expect(markdown).toContain("2023-11-23 is Thanksgiving Day, an exchange holiday");
    expect(markdown).toMatch(/\*\*HES\*\* over 3 day\(s\)/);
    expect(markdown).toMatch(/\*\*ODFL\*\* over 4 day\(s\)/);
  });

  it("a holiday only: the note, and every section says there is nothing to measure", () => {
    const { markdown } = runs.holiday;
    expect(markdown).toContain("2023-11-23 is Thanksgiving Day, an exchange holiday: no trading, so no data that day.");
    expect(markdown).toContain("No trading day from 2023-11-23 to 2023-11-23: nothing to measure.");
    expect(markdown.match(/Nothing to measure here/g)?.length).toBeGreaterThan(5);
    expect(markdown).toContain("No ticker-day from 2023-11-23 to 2023-11-23 holds data for AAPL");
  });

  it("an underlying with no data in its range: the note says why, and nothing is shown as a result", () => {
    const { markdown } = runs.noData;
    expect(markdown).toMatch(/HES stops trading after 2023-11-23, .*: 0 trading days of 3 can be measured\./);
    expect(markdown).toContain("0 ticker-day(s) to measure");
    expect(markdown).toContain("No ticker-day from 2023-11-24 to 2023-11-28 holds data for HES");
  });
});
