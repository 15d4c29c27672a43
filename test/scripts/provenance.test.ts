/**
 * compareRuns: how `npm run notebook -- --verify <manifest>` tells a re-run's calls from the
 * manifest's (row counts, a changed request or parameter, a missing or added call, a failure,
 * another hash scheme). The runner's real runs, its manifests and --verify on the same and on
 * another market, are tested in recipe.test.ts, beside the runs they share.
 */
import { describe, expect, it } from "vitest";
import { compareRuns } from "../../workbench/provenance/compareRuns.ts";
import type { CallRecord } from "../../workbench/mod.ts";

describe("compareRuns", () => {
  const call = (over: Partial<CallRecord> = {}): CallRecord => ({
    seq: 1,
    dataset: "eq-daily-ohlc",
    pathValues: [],
    query: {},
    requests: [{ path: "/api/v1/data/us-equity/eq-daily-ohlc", params: [["Ticker", "AAPL"]] }],
    status: { last_updated: "2023-11-28T00:00:00Z" },
    requestIds: [],
    pages: 1,
    rows: 4,
    bytes: 100,
    frameHash: "sha256:aaaa",
    columns: 3,
    startedAt: "",
    seconds: 0,
    ...over,
  });

  it("tells row counts, a changed request, a missing and an added call apart", () => {
    const { lines, differences } = compareRuns(
      { calls: [call(), call({ seq: 2 }), call({ seq: 3 })] },
      {
        calls: [
          call({ rows: 5, frameHash: "sha256:bbbb", status: { last_updated: "2023-11-29T00:00:00Z" } }),
          call({ seq: 2, requests: [{ path: "/x", params: [] }] }),
          call({ seq: 3 }),
          call({ seq: 4, rows: 1 }),
        ],
      },
    );
    expect(differences).toBe(3);
    expect(lines[0]).toBe(
      "call 1 eq-daily-ohlc: DIFFERENT: 4 rows then, 5 rows now (sha256:aaaa… then, sha256:bbbb… now); the dataset was updated 2023-11-28T00:00:00Z then, 2023-11-29T00:00:00Z now",
    );
    expect(lines[1]).toBe(
      "call 2 eq-daily-ohlc: DIFFERENT: another call: eq-daily-ohlc /api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL then, /x? now",
    );
    expect(lines[2]).toBe("call 3 eq-daily-ohlc: same (4 rows, sha256:aaaa…)");
    expect(lines[3]).toBe("call 4 eq-daily-ohlc: DIFFERENT: not in the manifest (1 row in the re-run)");
    expect(compareRuns({ calls: [call()] }, { calls: [] }).lines).toEqual([
      "call 1 eq-daily-ohlc: DIFFERENT: missing from the re-run (4 rows in the manifest)",
    ]);
  });

  it("a changed parameter is named by itself, with the request it is in", () => {
    const two = (end: string) =>
      call({
        requests: ["AAPL", "MSFT"].map((t) => ({
          path: `/api/v1/data/us-equity/eq-taq-1min/${t}`,
          params: [["TradeDate.ge", "2023-11-20"], ["TradeDate.le", end]] as [string, string][],
        })),
      });
    expect(compareRuns({ calls: [two("2023-11-22")] }, { calls: [two("2023-11-24")] }).lines[0]).toBe(
      "call 1 eq-daily-ohlc: DIFFERENT: another call: eq-daily-ohlc request 1 of 2: /api/v1/data/us-equity/eq-taq-1min/AAPL asked TradeDate.le=2023-11-22 then, TradeDate.le=2023-11-24 now",
    );
  });

  it("a call failing the same way both times is the same; another outcome or another hash scheme is a difference", () => {
    const failed = call({ rows: 0, frameHash: undefined, error: { name: "UnknownTickerError", message: "Unknown ticker 'ZZZZ'" } });
    expect(compareRuns({ calls: [failed] }, { calls: [failed] })).toEqual({
      lines: ["call 1 eq-daily-ohlc: same (failed both times: UnknownTickerError)"],
      differences: 0,
    });
    expect(compareRuns({ calls: [failed] }, { calls: [call()] }).lines).toEqual([
      "call 1 eq-daily-ohlc: DIFFERENT: failed (UnknownTickerError: Unknown ticker 'ZZZZ') then, returned 4 rows now",
    ]);
    const then = { calls: [call({ frameHash: "rows:aaaa" })], hash: { scheme: "rows/1", nodejsPolars: "0.26.1" } };
    const now = { calls: [call({ frameHash: "rows:bbbb" })], hash: { scheme: "rows/1", nodejsPolars: "0.27.0" } };
    expect(compareRuns(then, now).lines[0]).toMatch(
      /DIFFERENT: cannot compare the frames: hashed with rows\/1 under nodejs-polars 0.26.1 then, rows\/1 under nodejs-polars 0.27.0 now/,
    );
    expect(compareRuns(then, { ...now, calls: then.calls }).differences).toBe(0);
  });
});
