/**
 * What one page costs the client's CPU, whatever the transfer (issue 22, items 1 and 3): the
 * 13 pages of the universe pull (every `demo` ticker x 20 days of eq-taq-1min, every column,
 * about 6.3 MB of CSV each), fetched once from a sandbox process, then, on the same bytes,
 * alternating over rounds, CPU of the process (every thread):
 * - the workbench's parse of a page into its typed frame (`pageToFrame`: Polars' CSV reader
 *   typed from /columns, the typing after it),
 * - the same reader with the date-times read as text (typed otherwise), and with every column
 *   read as text (the reader's tokenizing alone), which show what typing costs and where,
 * - Python Polars' `read_csv` typed from /columns, as the peer parses (bench/peers/python_parse.py,
 *   when python3 has polars),
 * - the lake's write of a page as one Parquet file (the sink a download adds to the frame pull).
 * These set the floors of bench/universe.ts on two shared cores: the workbench's client spends
 * at least its parse, which is at or above the peer's, and a download spends the frame pull's
 * CPU plus the write.
 *
 *   deno run -A bench/pageCost.ts [rounds=5]
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import process from "node:process";
import { join } from "node:path";
import { tradingDays } from "../calendar/calendar.ts";
import { type ColumnInfo, dtypeOf, pageToFrame } from "../workbench/frames/frames.ts";
import { ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { peerUnavailable } from "./support/pythonPeer.ts";
import { median } from "./support/stats.ts";

const ROUNDS = Number(Deno.args[0] ?? 5);
const demoDir = join(REPO_ROOT, "data", "demo");
const market = ensureDemoMarket(demoDir, (line) => console.error(`bench: ${line}`));
const tickers: string[] = (JSON.parse(readFileSync(join(demoDir, "manifest.json"), "utf8")).securities as { ticker: string }[]).map((s) =>
  s.ticker
);
const days = tradingDays(market.start, market.end).map((d) => d.date);
const KEY = "demo-full-access";
const loadAtStart = loadavg()[0];
const scratch = mkdtempSync(join(tmpdir(), "bench-page-cost-"));

/** CPU milliseconds of this process (every thread) spent by `f`. */
async function cpuMs(f: () => unknown): Promise<number> {
  const used = process.cpuUsage();
  await f();
  const u = process.cpuUsage(used);
  return (u.user + u.system) / 1000;
}

const sandbox = await startSandboxProcess(demoDir);
let columns: ColumnInfo[];
const pages: Uint8Array[] = [];
try {
  const get = async (path: string) => {
    const r = await fetch(`${sandbox.baseUrl}${path}`, { headers: { "X-API-KEY": KEY } });
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  };
  columns = JSON.parse(new TextDecoder().decode(await get("/api/v1/meta/datasets/eq-taq-1min/columns")));
  for (const t of tickers) {
    const q = new URLSearchParams({ "TradeDate.ge": days[0], "TradeDate.le": days[19], limit: "100000", response_format: "csv" });
    pages.push(await get(`/api/v1/data/us-equity/eq-taq-1min/${t}?${q}`));
  }
} finally {
  await sandbox.stop();
}
writeFileSync(join(scratch, "columns.json"), JSON.stringify(columns));
pages.forEach((page, i) => writeFileSync(join(scratch, `page-${String(i).padStart(2, "0")}.csv`), page));
const megabytes = pages.reduce((n, p) => n + p.byteLength, 0) / 1e6;

const bytesOf = (page: Uint8Array) => Buffer.from(page.buffer, page.byteOffset, page.byteLength);
const asText = (page: Uint8Array) => pl.readCSV(bytesOf(page), { inferSchemaLength: 0, rechunk: true } as never);
const notDateTimes = Object.fromEntries(
  columns.filter((c) => ["int64", "float64", "date"].includes(c.data_type)).map((c) => [c.name, dtypeOf(c)]),
);
const dateTimesAsText = (page: Uint8Array) =>
  pl.readCSV(bytesOf(page), { inferSchemaLength: 0, dtypes: notDateTimes, rechunk: true } as never);
const lakeWrite = async (frame: pl.DataFrame, file: string) => {
  await frame.lazy().drop(["Ticker"]).sinkParquet(file, { compression: "snappy" }).collect();
};
const typed = pages.map((p) => pageToFrame(p, "csv", columns)); // also warms the reader
const rows = typed.reduce((n, frame) => n + frame.height, 0);
const peerMissing = peerUnavailable();
const timings: Record<string, number[]> = { workbench: [], dateTimesAsText: [], text: [], peer: [], write: [] };
let peerPolars = "";
for (let round = 0; round < ROUNDS; round++) {
  timings.workbench.push(await cpuMs(() => pages.forEach((p) => pageToFrame(p, "csv", columns))));
  timings.dateTimesAsText.push(await cpuMs(() => pages.forEach(dateTimesAsText)));
  timings.text.push(await cpuMs(() => pages.forEach(asText)));
  timings.write.push(
    await cpuMs(async () => {
      for (const [i, frame] of typed.entries()) await lakeWrite(frame, join(scratch, `lake-${i}.parquet`));
    }),
  );
  if (!peerMissing) {
    const answer = JSON.parse(
      execFileSync("python3", [join(REPO_ROOT, "bench/peers/python_parse.py"), scratch, "1"], { encoding: "utf8" }),
    );
    timings.peer.push(answer.rounds[0].cpuSeconds * 1000);
    peerPolars = answer.polars;
  }
}
rmSync(scratch, { recursive: true, force: true });

const perPage = (ms: number[]) => median(ms) / pages.length;
const line = (name: string, ms: number[], note: string) =>
  console.log(`${name.padEnd(46)}${perPage(ms).toFixed(1).padStart(8)}${(median(ms) / 1000).toFixed(2).padStart(10)}  ${note}`);
console.log(
  `${pages.length} pages of eq-taq-1min (${tickers.length} tickers x 20 days, every column): ${rows.toLocaleString("en-US")} rows, ${
    megabytes.toFixed(1)
  } MB of CSV; medians of ${ROUNDS} alternating rounds, CPU of the process (every thread)`,
);
console.log(`${"way".padEnd(46)}${"ms/page".padStart(8)}${"s/pull".padStart(10)}`);
line(
  "workbench: page to typed frame (pageToFrame)",
  timings.workbench,
  `${(megabytes / (median(timings.workbench) / 1000)).toFixed(0)} MB/s of CSV`,
);
line(
  "same reader, date-times as text",
  timings.dateTimesAsText,
  `${
    (median(timings.dateTimesAsText) / median(timings.workbench)).toFixed(2)
  }x the typed parse: the rest is the reader's date-times with offsets`,
);
line(
  "same reader, every column as text",
  timings.text,
  `${(median(timings.text) / median(timings.workbench)).toFixed(2)}x the typed parse: the reader's tokenizing`,
);
if (peerMissing) console.log(`Python Polars peer's parse: skipped (${peerMissing})`);
else {line(
    `Python Polars ${peerPolars}: read_csv typed`,
    timings.peer,
    `the workbench's parse is ${(median(timings.workbench) / median(timings.peer)).toFixed(2)}x its CPU`,
  );}
line("lake: a page written as one Parquet file", timings.write, "what a download adds to the frame pull's CPU");
console.log(
  `rounds (ms a pull): ${
    Object.entries(timings).filter(([, v]) => v.length > 0).map(([k, v]) => `${k} ${v.map((x) => x.toFixed(0)).join("/")}`).join("; ")
  }`,
);
console.log(
  `load average (1 min) ${loadavg()[0].toFixed(2)} at the end, ${loadAtStart.toFixed(2)} at the start, on ${cpus().length} cores`,
);
Deno.exit(0);
