/**
 * Provenance benchmark: what recording a call (`wb.provenance()`, frame hash included) costs
 * next to the fetch it describes, all in the same run against one sandbox on the demo market.
 * The frame is 500,000+ rows of every column of eq-taq-1min (nine tickers, 62 days), fetched
 * as a notebook does (CSV, default pages), nine calls in a row. Measured:
 *
 * - the same fetch with recording off (the baseline) and on, alternating, five rounds each:
 *   the target is on/off under 1.03 (recording hashes each page's rows as the page arrives,
 *   while later pages are on the wire, so most of its work overlaps the fetch);
 * - the recording's work timed alone (row hashes of every part, digest, row blocks), as if it
 *   all ran after the fetch;
 * - `frameHash` of the whole frame in both schemes (`rows` vs `canonical`), and the candidate
 *   digests of node:crypto on this CPU over the canonical encoding's volume of bytes.
 *
 *   deno run -A bench/provenance.ts [--rounds 5]
 */
import pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { connect, frameHash } from "../workbench/mod.ts";
import { rowBlocksOf } from "../workbench/provenance/rowBlocks.ts";
import { rowHashBytes, rowsDigest } from "../workbench/provenance/rowHashes.ts";
import { ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { REPO_ROOT } from "./support/paths.ts";

const TICKERS = ["AAPL", "MSFT", "JPM", "SPY", "QQQ", "TSM", "ODFL", "SIRI", "CVX"];
const TARGET = 0.03;
const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const log = (line: string) => console.error(`bench: ${line}`);
const demoDir = join(REPO_ROOT, "data", "demo");
ensureDemoMarket(demoDir, log);
const sandbox = await startSandboxProcess(demoDir);
const seconds = (start: number) => (performance.now() - start) / 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timed = (f: () => unknown) => {
  const start = performance.now();
  f();
  return seconds(start);
};

try {
  const recorded = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access", provenance: true });
  const plain = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access", provenance: false });
  const fetchAll = async (wb: typeof plain) => {
    const parts: pl.DataFrame[] = [];
    for (const ticker of TICKERS) parts.push(await wb.data.eqTaq1Min(ticker));
    return parts;
  };
  await fetchAll(plain); // warm the service's file cache: every timed fetch meets the same server
  const off: number[] = [], on: number[] = [];
  let parts: pl.DataFrame[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    // Alternate which goes first, so a drift of the machine's load hits both alike.
    for (const which of round % 2 === 0 ? ["off", "on"] : ["on", "off"]) {
      const start = performance.now();
      parts = await fetchAll(which === "on" ? recorded : plain);
      (which === "on" ? on : off).push(seconds(start));
    }
  }
  const frame = pl.concat(parts, { rechunk: false, how: "vertical" });
  // The recorded hashes are those of the frames returned: checked, not assumed.
  const calls = recorded.provenance().calls.slice(-TICKERS.length);
  calls.forEach((c, i) => {
    if (c.frameHash !== frameHash(parts[i])) throw new Error(`call ${c.seq}: recorded ${c.frameHash}, the frame hashes ${frameHash(parts[i])}`);
  });
  const work = median([0, 1, 2].map(() => timed(() => parts.forEach((p) => {
    const bytes = rowHashBytes(p);
    rowsDigest(p, [bytes]);
    rowBlocksOf(bytes, p.height);
  }))));
  const rowsS = median([0, 1, 2].map(() => timed(() => frameHash(frame))));
  const canonicalS = median([0, 1, 2].map(() => timed(() => frameHash(frame, { scheme: "canonical" }))));
  const offS = median(off), onS = median(on);
  const mb = (frame.height * frame.width * 8) / 1e6; // 8 bytes a value: the canonical encoding's volume, roughly
  const row = (label: string, s: number, extra = "") => console.log(`${label.padEnd(34)} ${s.toFixed(3).padStart(8)} s ${(100 * s / offS).toFixed(1).padStart(6)}%  ${extra}`);
  console.log(`frame: ${frame.height.toLocaleString("en-US")} rows x ${frame.width} columns of eq-taq-1min (${TICKERS.length} calls, demo market), ~${mb.toFixed(0)} MB of values`);
  console.log(`${"step".padEnd(34)} ${"median".padStart(8)}   ${"of fetch".padStart(7)}`);
  row("fetch, recording off (baseline)", offS, `rounds ${off.map((s) => s.toFixed(2)).join(" ")}`);
  row("fetch, recording on", onS, `rounds ${on.map((s) => s.toFixed(2)).join(" ")}`);
  row("recording work alone, 9 calls", work, "(row hashes, digest, row blocks of each call's frame)");
  row("frameHash rows/1, whole frame", rowsS, `(${(mb / rowsS).toFixed(0)} MB/s)`);
  row("frameHash canonical, whole frame", canonicalS, `(${(mb / canonicalS).toFixed(0)} MB/s)`);
  const bytes = new Uint8Array(Math.round(mb * 1e6));
  for (const digest of ["sha256", "sha1", "blake2b512", "md5"]) {
    const s = median([0, 1, 2].map(() => timed(() => createHash(digest).update(bytes).digest())));
    row(`${digest} alone over ${mb.toFixed(0)} MB`, s, `(${(mb / s).toFixed(0)} MB/s)`);
  }
  const share = onS / offS - 1;
  console.log(`recording on / off = ${(1 + share).toFixed(3)} (${(100 * share).toFixed(1)}%; target < ${100 * TARGET}%)`);
  console.log(share < TARGET ? "target met" : "TARGET MISSED");
  if (share >= TARGET) process.exitCode = 1;
} finally {
  await sandbox.stop();
}
