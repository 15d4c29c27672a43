/**
 * Child process of bench/workbench.ts: one way of getting the rows, measured alone so its
 * peak memory is its own. Prints one JSON line.
 *
 *   deno run -A bench/support/workbenchRun.ts <mode> <baseUrl> <fromDate> [dir]
 * modes: workbench | naive | raw | download
 */
import pl from "nodejs-polars";
import { readFileSync } from "node:fs";
import { connect } from "../../workbench/mod.ts";
import { TICKER } from "./workbenchMarket.ts";

const [mode, baseUrl, fromDate, dir] = Deno.args;
const KEY = "demo-full-access";
const PAGE = 100_000;
const CONCURRENCY = 4;
const path = `/api/v1/data/us-equity/eq-taq-1min/${TICKER}`;
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
const url = (offset: number, limit: number, format: string) =>
  `${baseUrl}${path}?TradeDate.ge=${fromDate}&offset=${offset}&limit=${limit}&response_format=${format}`;

async function naive(): Promise<{ rows: number; bytes: number }> {
  // What a first notebook does: JSON pages one after another, records gathered, one frame at the end.
  const records: Record<string, unknown>[] = [];
  let bytes = 0;
  for (let offset: number | null = 0; offset !== null;) {
    const text = await (await fetch(url(offset, 10_000, "json"), { headers: { "X-API-KEY": KEY } })).text();
    bytes += text.length;
    const body = JSON.parse(text);
    records.push(...body.data);
    offset = body.pagination.next_offset;
  }
  const frame = pl.DataFrame(records);
  return { rows: frame.height, bytes };
}

async function raw(): Promise<{ rows: number; bytes: number }> {
  // The same CSV pages, the same concurrency as the workbench, bytes only: the transfer floor.
  let bytes = 0, offset = 0, done = false;
  const worker = async () => {
    while (!done) {
      const mine = offset;
      offset += PAGE;
      const r = await fetch(url(mine, PAGE, "csv"), { headers: { "X-API-KEY": KEY } });
      const body = new Uint8Array(await r.arrayBuffer());
      bytes += body.byteLength;
      if (r.headers.get("X-Pagination-Next-Offset") === "") done = true;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { rows: Number.NaN, bytes };
}

const started = performance.now();
let result: { rows: number; bytes: number };
if (mode === "naive") result = await naive();
else if (mode === "raw") result = await raw();
else {
  const wb = await connect({ baseUrl, apiKey: KEY });
  const query = { filters: { TradeDate: { ge: fromDate } }, pageSize: PAGE, concurrency: CONCURRENCY };
  if (mode === "workbench") {
    const frame = await wb.data.eqTaq1Min(TICKER, query);
    result = { rows: frame.height, bytes: Number.NaN };
  } else {
    const r = await wb.download("eq-taq-1min", {
      tickers: [TICKER],
      start: fromDate,
      pageSize: PAGE,
      concurrency: CONCURRENCY,
      force: true,
    }, dir);
    result = { rows: r.rows, bytes: Number.NaN };
  }
}
console.log(JSON.stringify({ mode, seconds: (performance.now() - started) / 1000, ...result, peakMb: peakMb() }));
