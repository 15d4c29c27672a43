/**
 * Provenance benchmark: what recording a call (`wb.provenance()`, frame hash included) costs
 * next to the fetch it describes, all in the same run against one sandbox on the demo market:
 * the same fetch with recording off (the baseline) and on, alternating, and `frameHash` alone.
 * The frame is 500,000+ rows of every column of eq-taq-1min (nine tickers, 62 days), fetched
 * as a notebook does (CSV, default pages). Target: recording under 3% of the fetch time.
 *
 *   deno run -A bench/provenance.ts
 */
import pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { connect, frameHash } from "../workbench/mod.ts";
import { rowBlocks } from "../workbench/provenance/rowBlocks.ts";
import { ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { REPO_ROOT } from "./support/paths.ts";

const TICKERS = ["AAPL", "MSFT", "JPM", "SPY", "QQQ", "TSM", "ODFL", "SIRI", "CVX"];
const log = (line: string) => console.error(`bench: ${line}`);
const demoDir = join(REPO_ROOT, "data", "demo");
ensureDemoMarket(demoDir, log);
const sandbox = await startSandboxProcess(demoDir);
const seconds = (start: number) => (performance.now() - start) / 1000;

try {
  const recorded = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access", provenance: true });
  const plain = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access", provenance: false });
  let parts: pl.DataFrame[] = [];
  const fetchAll = async (wb = plain) => {
    parts = [];
    for (const ticker of TICKERS) parts.push(await wb.data.eqTaq1Min(ticker));
    return pl.concat(parts);
  };
  // What recording adds to each call, timed alone (steadier than two whole fetches): the
  // frame hash and the row blocks of each call's frame.
  const recordingWork = () => {
    const start = performance.now();
    for (const part of parts) (frameHash(part), rowBlocks(part));
    return seconds(start);
  };
  await fetchAll(); // warm the service's file cache: every timed fetch meets the same server
  const rounds: { fetch: number; recorded: number; hash: number; work: number }[] = [];
  let frame = pl.DataFrame({});
  let hash = "";
  for (let round = 0; round < 3; round++) {
    let start = performance.now();
    frame = await fetchAll();
    const fetch = seconds(start);
    const work = recordingWork();
    start = performance.now();
    await fetchAll(recorded);
    const withRecording = seconds(start);
    start = performance.now();
    const h = frameHash(frame);
    rounds.push({ fetch, recorded: withRecording, hash: seconds(start), work });
    if (hash && h !== hash) throw new Error(`The same fetch hashed differently: ${hash} then ${h}`);
    hash = h;
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const fetchS = median(rounds.map((r) => r.fetch));
  const hashS = median(rounds.map((r) => r.hash));
  const recordedS = median(rounds.map((r) => r.recorded));
  const workS = median(rounds.map((r) => r.work));
  const mb = (frame.height * frame.width * 8) / 1e6; // 8 bytes a value: the hashed volume, roughly
  console.log(`frame: ${frame.height.toLocaleString("en-US")} rows x ${frame.width} columns of eq-taq-1min (${TICKERS.length} tickers, demo market), ~${mb.toFixed(0)} MB of values`);
  console.log(`${"step".padEnd(26)} ${"median s".padStart(9)}  rounds`);
  console.log(`${"fetch (baseline)".padEnd(26)} ${fetchS.toFixed(3).padStart(9)}  ${rounds.map((r) => r.fetch.toFixed(2)).join(" ")}`);
  console.log(`${"fetch, recording on".padEnd(26)} ${recordedS.toFixed(3).padStart(9)}  ${rounds.map((r) => r.recorded.toFixed(2)).join(" ")}`);
  console.log(`${"recording work, 9 calls".padEnd(26)} ${workS.toFixed(3).padStart(9)}  ${rounds.map((r) => r.work.toFixed(3)).join(" ")}  (frameHash + rowBlocks of each call's frame)`);
  console.log(`${"frameHash".padEnd(26)} ${hashS.toFixed(3).padStart(9)}  ${rounds.map((r) => r.hash.toFixed(3)).join(" ")}  (${(mb / hashS).toFixed(0)} MB/s)`);
  // The floor of any SHA-256 encoding: the digest alone over as many bytes, no extraction.
  const bytes = new Uint8Array(Math.round(mb * 1e6));
  const floorStart = performance.now();
  createHash("sha256").update(bytes).digest();
  const floorS = seconds(floorStart);
  console.log(`${"SHA-256 alone, same bytes".padEnd(26)} ${floorS.toFixed(3).padStart(9)}  (the floor: ${(100 * floorS / fetchS).toFixed(1)}% of the fetch)`);
  const share = hashS / fetchS;
  console.log(`hash / fetch = ${(100 * share).toFixed(1)}%; hash ${hash.slice(0, 19)}…`);
  // Recording hashes nine frames of ~60,000 rows: the same work in pieces, plus the status read.
  console.log(`recording work / fetch = ${(100 * workS / fetchS).toFixed(1)}% (target < 3%)`);
  console.log(`recording on / off = ${(100 * (recordedS / fetchS - 1)).toFixed(1)}% (noisy: the two fetch medians differ by chance as much as by the recording)`);
  const recordingShare = workS / fetchS;
  console.log(recordingShare < 0.03 ? "target met (recording work)" : "TARGET MISSED (recording work)");
  if (recordingShare >= 0.03) process.exitCode = 1;
} finally {
  await sandbox.stop();
}
