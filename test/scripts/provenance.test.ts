/**
 * The runner's provenance: `npm run notebook` leaves `<name>.provenance.json` and a footer in
 * the report; `--verify <manifest>` re-runs with the manifest's parameters and finds the same
 * frames and lake partitions on the same market and different ones on a market generated with
 * another seed. The fixture makes one call and one download, so each run checks both.
 * Real runs: the Deno kernel, the sandbox, the fixture notebook. The runs on the test market
 * share one sandbox (`--base-url`); the run on the other market starts its own (`--data`).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { compareRuns } from "../../workbench/provenance/compareRuns.ts";
import { denoPath } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import type { CallRecord, RunManifest } from "../../workbench/mod.ts";
import { fileSandbox } from "./support/fileSandbox.ts";

const dir = mkdtempSync(join(tmpdir(), "provenance-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = "test/scripts/fixtures/tiny-recipe.ipynb";
/** A test that runs the notebook waits as long as the run may take (its own timeout, 180 s) and a little more. */
const RUN_TEST_MS = 200_000;

/** The file's sandbox on the test market, started by the first run that needs it. */
const testMarket = fileSandbox();
afterAll(() => testMarket.stop());

/** The runner on the test market (the file's sandbox), or on `market` (a sandbox of the run's own). */
async function notebook(args: string[], market?: string, path = fixture) {
  const where = market === undefined ? ["--base-url", await testMarket.baseUrl()] : ["--profile", "tiny", "--data", market];
  return run(denoPath(), ["run", "-A", "scripts/recipe.ts", path, ...where, ...args], {
    timeoutMs: 180_000,
    env: { ...process.env, npm_lifecycle_event: "notebook" },
  });
}
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

/** The tiny market of another seed (test/globalSetup.ts). */
const otherMarket = (): string => inject("otherMarketDir");

describe("npm run notebook writes a provenance manifest", () => {
  const out = join(dir, "first");
  const lake = join(dir, "lake");
  let manifest: RunManifest;
  beforeAll(async () => {
    // One run makes a call and a download, so one --verify run checks both.
    const result = await notebook(["--out", out, "--param", "ticker=MSFT", "--param", "days=3", "--param", `lake=${lake}`]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`provenance:        ${join(out, "tiny-recipe.provenance.json")}`);
    manifest = readJson(join(out, "tiny-recipe.provenance.json"));
  });

  it("with the run's parameters, versions, commit and time, and each call's frame hash", () => {
    expect(manifest.parameters).toEqual({ ticker: "MSFT", days: "3", lake });
    expect(manifest.notebook).toBe(fixture);
    expect(manifest.versions.deno).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.versions.nodejsPolars).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.workbench.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Date.now() - Date.parse(manifest.ranAt)).toBeLessThan(10 * 60_000);
    expect(manifest.calls).toHaveLength(1);
    const call = manifest.calls[0] as CallRecord & { service: string };
    expect(call).toMatchObject({ seq: 1, dataset: "eq-daily-ohlc", rows: 3, pages: 1, query: { filters: { Ticker: "MSFT" }, maxRows: 3 } });
    expect(call.frameHash).toMatch(/^rows:[0-9a-f]{64}$/);
    expect(manifest.hash).toEqual({ scheme: "rows/1", nodejsPolars: manifest.versions.nodejsPolars });
    expect(manifest.outcome).toBe("completed");
    expect(call.requestIds).toHaveLength(1);
    expect(call.status.last_available_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(manifest.services).toEqual([call.service]);
  });

  it("with each downloaded partition of the range, its rows and hash", () => {
    const [d] = manifest.downloads!;
    expect(manifest.downloads).toHaveLength(1);
    expect(d).toMatchObject({ dataset: "eq-taq-1min", dir: lake, reused: 0, reusedPartitions: [] });
    expect(d.fetched.map((p) => p.path)).toEqual(["Ticker=MSFT/TradeDate=2023-11-20", "Ticker=MSFT/TradeDate=2023-11-21"]);
    for (const p of d.fetched) expect(p.frameHash).toMatch(/^rows:[0-9a-f]{64}$/);
    expect(d.rows).toBe(d.fetched[0].rows + d.fetched[1].rows);
  });

  it("never holds the key; the collecting cell is gone and the report shows the footer", () => {
    const text = readFileSync(join(out, "tiny-recipe.provenance.json"), "utf8");
    expect(text).not.toContain("demo-full-access");
    const executed = readJson(join(out, "tiny-recipe.ipynb"));
    expect(JSON.stringify(executed)).not.toContain("vnd.market-workbench.provenance");
    const html = readFileSync(join(out, "tiny-recipe.html"), "utf8");
    expect(html).toContain("Provenance");
    expect(html).toContain(manifest.calls[0].frameHash.slice(0, 23));
    expect(html).toContain("eq-daily-ohlc");
  });

  it("--verify on the same market: every call the same, exit 0, the manifest left as it was", async () => {
    const path = join(out, "tiny-recipe.provenance.json");
    const before = readFileSync(path, "utf8");
    const result = await notebook(["--out", out, "--verify", path]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`with ticker=MSFT days=3 lake=${lake}`);
    expect(result.stdout).toMatch(/verify: call 1 eq-daily-ohlc: same \(3 rows, rows:/);
    expect(result.stdout).toContain("verify: identical: 1 call and 1 download gave the same frames");
    expect(readFileSync(path, "utf8")).toBe(before);
    const rerun: RunManifest = readJson(join(out, "tiny-recipe.rerun.provenance.json"));
    expect(rerun.calls[0].frameHash).toBe(manifest.calls[0].frameHash);
    // The download reused the partitions, hashing their files read back.
    expect(rerun.downloads![0]).toMatchObject({ fetched: [], reused: 2, reusedPartitions: manifest.downloads![0].fetched, requestIds: [] });
    const rows = manifest.downloads![0].rows.toLocaleString("en-US");
    expect(result.stdout).toContain(`verify: download 1 eq-taq-1min: same (2 partitions, ${rows} rows; fetched then, reused from the folder now)`);
  }, RUN_TEST_MS);

  it("--verify against a market generated with another seed (the folder gone): the call and the partitions DIFFERENT, exit 1", async () => {
    rmSync(lake, { recursive: true, force: true });
    const path = join(out, "tiny-recipe.provenance.json");
    const result = await notebook(["--out", join(dir, "other"), "--verify", path], otherMarket());
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/verify: call 1 eq-daily-ohlc: DIFFERENT: 3 rows both times, other values, first differing at row \d \(rows:/);
    expect(result.stdout).toMatch(
      /verify: download 1 eq-taq-1min: DIFFERENT: 2 of 2 partitions differ \(Ticker=MSFT\/TradeDate=2023-11-20, Ticker=MSFT\/TradeDate=2023-11-21\), [\d,]+ rows then, [\d,]+ rows now \(fetched then, fetched now\); first differing: Ticker=MSFT\/TradeDate=2023-11-20: [\d,]+ rows (both times, other values|then, [\d,]+ rows now) \(rows:[0-9a-f]{12}… then, rows:[0-9a-f]{12}… now\)/,
    );
    expect(result.stdout).toContain(`verify: 2 of 2 differ (1 call and 1 download) from ${path}`);
  }, RUN_TEST_MS);


  it("a notebook whose cell fails still leaves a manifest, marked failed with the failing cell and the failed call", async () => {
    const failed = join(dir, "failed");
    const result = await notebook(["--out", failed, "--param", "ticker=ZZZZ"]);
    expect(result.status).toBe(1);
    const path = join(failed, "tiny-recipe.provenance.json");
    expect(result.stdout).toContain(`provenance:        ${path}`);
    const m: RunManifest = readJson(path);
    expect(m.outcome).toBe("failed");
    expect(m.parameters).toEqual({ ticker: "ZZZZ" });
    expect(m.failedCell?.error).toMatch(/UnknownTickerError/);
    expect(m.failedCell?.index).toBeGreaterThan(1);
    const daily = m.calls.find((c) => c.dataset === "eq-daily-ohlc")!;
    expect(daily.error).toMatchObject({ name: "UnknownTickerError" });
    expect(daily.requests[0].params).toContainEqual(["Ticker", "ZZZZ"]);
    expect(readFileSync(path, "utf8")).not.toContain("demo-full-access");
    expect(readFileSync(join(failed, "tiny-recipe.html"), "utf8")).toContain("This run failed");
  }, RUN_TEST_MS);

  it("--verify takes no --param, and refuses what is not a manifest", async () => {
    const withParam = await notebook(["--verify", join(out, "tiny-recipe.provenance.json"), "--param", "days=2"]);
    expect(withParam.status).toBe(2);
    expect(withParam.stderr).toContain("--verify takes its parameters from the manifest");
    const notOne = await notebook(["--verify", join(out, "tiny-recipe.ipynb")]);
    expect(notOne.status).toBe(2);
    expect(notOne.stderr).toContain("is not a provenance manifest");
  }, RUN_TEST_MS);
});

describe("compareRuns", () => {
  const call = (over: Partial<CallRecord> = {}): CallRecord => ({
    seq: 1, dataset: "eq-daily-ohlc", pathValues: [], query: {}, requests: [{ path: "/api/v1/data/us-equity/eq-daily-ohlc", params: [["Ticker", "AAPL"]] }],
    status: { last_updated: "2023-11-28T00:00:00Z" }, requestIds: [], pages: 1, rows: 4, bytes: 100, frameHash: "sha256:aaaa", columns: 3,
    startedAt: "", seconds: 0, ...over,
  });

  it("tells row counts, a changed request, a missing and an added call apart", () => {
    const { lines, differences } = compareRuns(
      { calls: [call(), call({ seq: 2 }), call({ seq: 3 })] },
      { calls: [call({ rows: 5, frameHash: "sha256:bbbb", status: { last_updated: "2023-11-29T00:00:00Z" } }), call({ seq: 2, requests: [{ path: "/x", params: [] }] }), call({ seq: 3 }), call({ seq: 4, rows: 1 })] },
    );
    expect(differences).toBe(3);
    expect(lines[0]).toBe("call 1 eq-daily-ohlc: DIFFERENT: 4 rows then, 5 rows now (sha256:aaaa… then, sha256:bbbb… now); the dataset was updated 2023-11-28T00:00:00Z then, 2023-11-29T00:00:00Z now");
    expect(lines[1]).toBe("call 2 eq-daily-ohlc: DIFFERENT: another call: eq-daily-ohlc /api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL then, /x? now");
    expect(lines[2]).toBe("call 3 eq-daily-ohlc: same (4 rows, sha256:aaaa…)");
    expect(lines[3]).toBe("call 4 eq-daily-ohlc: DIFFERENT: not in the manifest (1 row in the re-run)");
    expect(compareRuns({ calls: [call()] }, { calls: [] }).lines).toEqual(["call 1 eq-daily-ohlc: DIFFERENT: missing from the re-run (4 rows in the manifest)"]);
  });

  it("a changed parameter is named by itself, with the request it is in", () => {
    const two = (end: string) => call({ requests: ["AAPL", "MSFT"].map((t) => ({ path: `/api/v1/data/us-equity/eq-taq-1min/${t}`, params: [["TradeDate.ge", "2023-11-20"], ["TradeDate.le", end]] as [string, string][] })) });
    expect(compareRuns({ calls: [two("2023-11-22")] }, { calls: [two("2023-11-24")] }).lines[0]).toBe(
      "call 1 eq-daily-ohlc: DIFFERENT: another call: eq-daily-ohlc request 1 of 2: /api/v1/data/us-equity/eq-taq-1min/AAPL asked TradeDate.le=2023-11-22 then, TradeDate.le=2023-11-24 now",
    );
  });

  it("a call failing the same way both times is the same; another outcome or another hash scheme is a difference", () => {
    const failed = call({ rows: 0, frameHash: undefined, error: { name: "UnknownTickerError", message: "Unknown ticker 'ZZZZ'" } });
    expect(compareRuns({ calls: [failed] }, { calls: [failed] })).toEqual({ lines: ["call 1 eq-daily-ohlc: same (failed both times: UnknownTickerError)"], differences: 0 });
    expect(compareRuns({ calls: [failed] }, { calls: [call()] }).lines).toEqual(["call 1 eq-daily-ohlc: DIFFERENT: failed (UnknownTickerError: Unknown ticker 'ZZZZ') then, returned 4 rows now"]);
    const then = { calls: [call({ frameHash: "rows:aaaa" })], hash: { scheme: "rows/1", nodejsPolars: "0.26.1" } };
    const now = { calls: [call({ frameHash: "rows:bbbb" })], hash: { scheme: "rows/1", nodejsPolars: "0.27.0" } };
    expect(compareRuns(then, now).lines[0]).toMatch(/DIFFERENT: cannot compare the frames: hashed with rows\/1 under nodejs-polars 0.26.1 then, rows\/1 under nodejs-polars 0.27.0 now/);
    expect(compareRuns(then, { ...now, calls: then.calls }).differences).toBe(0);
  });
});
