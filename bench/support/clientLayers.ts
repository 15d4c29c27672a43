/**
 * Extra ways of the universe pull for `bench/universe.ts`, timed in its alternating rounds:
 * - `--split`: the client's layers one above the other, so the CPU seconds each adds are read
 *   off as differences: the workbench's transport alone (ky, the body's bytes), then each page
 *   typed into a frame (`pageToFrame`: CSV parse, typing, date-times), then the whole call
 *   with provenance off (pager, pipeline, guard, events, stacking); the universe call itself
 *   adds provenance (row hashes, records).
 * - `--against <checkout>`: the universe call of another checkout's workbench (its
 *   `workbench/mod.ts`, imported into this process, against the same sandbox), an A/B of two
 *   commits' clients under the same load.
 */
import type pl from "nodejs-polars";
import { join, resolve } from "node:path";
import { connect } from "../../workbench/mod.ts";
import { type ColumnInfo, pageToFrame } from "../../workbench/frames/frames.ts";
import { Transport } from "../../workbench/http/transport.ts";
import { runDeferred } from "../../workbench/provenance/deferred.ts";

/** What every way pulls: the demo universe's tickers over one range, this many at once. */
export interface Pull {
  baseUrl: string;
  apiKey: string;
  tickers: readonly string[];
  start: string;
  end: string;
  concurrency: number;
}

/** A named way of the pull; its result is not looked at. */
export type Way = [name: string, run: () => Promise<unknown>];

/** Each ticker's one request, `concurrency` at once (every demo ticker's 20 days fit one page). */
async function eachTicker<T>(pull: Pull, run: (ticker: string) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < pull.tickers.length) {
      const i = next++;
      out[i] = await run(pull.tickers[i]);
    }
  };
  await Promise.all(Array.from({ length: pull.concurrency }, worker));
  return out;
}

/** The `--split` layers, bottom up (the raw transfer below them and the universe call above are the benchmark's own). */
export async function splitLayers(pull: Pull): Promise<Way[]> {
  const transport = new Transport({ baseUrl: pull.baseUrl, apiKey: pull.apiKey });
  const columns = JSON.parse(
    new TextDecoder().decode((await transport.get("/api/v1/meta/datasets/eq-taq-1min/columns")).body),
  ) as ColumnInfo[];
  const page = (ticker: string) => {
    const params = new URLSearchParams({
      "TradeDate.ge": pull.start,
      "TradeDate.le": pull.end,
      offset: "0",
      limit: "100000",
      response_format: "csv",
    });
    return transport.get(`/api/v1/data/us-equity/eq-taq-1min/${encodeURIComponent(ticker)}`, params);
  };
  const off = await connect({ baseUrl: pull.baseUrl, apiKey: pull.apiKey, provenance: false });
  return [
    ["transport (ky, body bytes)", () => eachTicker(pull, async (t) => (await page(t)).body.byteLength)],
    ["+ pageToFrame (parse, typing)", () => eachTicker(pull, async (t) => pageToFrame((await page(t)).body, "csv", columns).height)],
    [
      "+ pipeline (provenance off)",
      () => off.data.eqTaq1Min([...pull.tickers], { start: pull.start, end: pull.end, concurrency: pull.concurrency }),
    ],
  ];
}

/** The universe call of the workbench at `checkout` (its deferred hashing run inside the timing, as the call's own is by the next way's). */
export async function againstWay(checkout: string, pull: Pull): Promise<Way> {
  const root = resolve(checkout);
  const other = await import(join(root, "workbench/mod.ts")) as typeof import("../../workbench/mod.ts");
  const deferred = await import(join(root, "workbench/provenance/deferred.ts")).catch(() => ({ runDeferred: () => {} })) as {
    runDeferred: () => void;
  };
  const wb = await other.connect({ baseUrl: pull.baseUrl, apiKey: pull.apiKey });
  return [`universe call of ${root}`, async (): Promise<pl.DataFrame> => {
    const frame = await wb.data.eqTaq1Min([...pull.tickers], { start: pull.start, end: pull.end, concurrency: pull.concurrency });
    deferred.runDeferred();
    return frame;
  }];
}

/** Runs this checkout's deferred hashing (the universe call's pages), so that the next way is not charged with it. */
export const settle = (): void => runDeferred();
