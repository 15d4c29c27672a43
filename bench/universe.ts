/**
 * Universe benchmark, all in one run over the demo market: every ticker
 * of `demo`, all of eq-taq-1min (every column) for 20 trading days,
 * - into a frame with one universe call (`wb.data.eqTaq1Min(tickers, { start, end })`),
 * - into a partitioned download (`wb.download`),
 * - against the same pull ticker by ticker, sequentially (the baseline), and the raw transfer
 *   of the same pages (plain fetch, same concurrency, no parsing).
 * - against the Python Polars peer (bench/peers/python_polars.py: requests, four pages in
 *   flight, read_csv typed from /columns), when python3 has polars; skipped with a message
 *   otherwise. Raw, universe call, download and peer alternate over three rounds; medians
 *   count, of wall seconds and of client CPU seconds (every thread of the client's process).
 *   The download is compared with the universe call, the frame pull of the same data.
 * Everything runs in two arrangements, each against its own sandbox: loopback as it is, and a
 * network like a user's (`--latency 40 --bandwidth 20`: 40 ms before each answer's first byte,
 * 20 MB/s per connection), where concurrency has a round trip and a transfer to hide.
 * Targets on loopback: universe frame >= 2.5x faster than sequential; within 1.15x of raw; at
 * least 1.1x faster than the peer, with no more client CPU; the download no slower than the
 * frame pull. Over the network: the universe call >= 3x faster than sequential; the download
 * within 1.2x of the frame pull. The universe call also runs with concurrency 2 against the
 * default (eight requests in flight for a call of several units: workbench/fetch/inFlight.ts).
 * The sequential pull and the universe call at concurrency 2 alternate in the same rounds
 * (medians of as many runs as the others). Then a re-run of the download one week wider: its
 * requests are counted (one per ticker expected). Each frame pull's deferred provenance hashing
 * is run inside its timing, so the next way is not charged with it.
 * Options: `--rounds N` (default 3); `--client` times the frame pull only (raw, universe call,
 * peer and the ways below; no download, sequential pull or re-run, and only the raw and peer
 * targets are judged); `--split` adds the client's layers (bench/support/clientLayers.ts:
 * transport alone, + pageToFrame, + pipeline with provenance off), each a row with its client
 * CPU seconds; `--against <checkout>` adds another checkout's universe call (an A/B of two
 * commits' clients in one run, against the same sandbox).
 *
 * The client runs as the notebook kernel runs it, with the kernel's V8 flags (the benchmark
 * starts itself again with them: bench/support/kernelFlags.ts); `--v8-defaults` keeps V8's own.
 *
 * `--concurrency N` sets the universe call's `concurrency` (default: the workbench's own), and
 * the raw transfer keeps as many pages in flight; the peer keeps four.
 *
 *   deno run -A bench/universe.ts [--only loopback|network] [--client] [--split] [--against ../main] [--rounds 5] [--concurrency 8] [--v8-defaults]
 */
import pl from "nodejs-polars";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import process from "node:process";
import { join } from "node:path";
import { tradingDays } from "../calendar/calendar.ts";
import { connect } from "../workbench/mod.ts";
import { ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { peerUnavailable, type PythonPeer, startPythonPeer } from "./support/pythonPeer.ts";
import { againstWay, settle, splitLayers, type Way } from "./support/clientLayers.ts";
import { median } from "./support/stats.ts";
import { rawPull } from "./support/rawPull.ts";
import { runAsNotebookKernel } from "./support/kernelFlags.ts";
import { inFlight } from "../workbench/fetch/inFlight.ts";

const V8_FLAGS = runAsNotebookKernel();
const log = (line: string) => console.error(`bench: ${line}`);
const demoDir = join(REPO_ROOT, "data", "demo");
const manifest = ensureDemoMarket(demoDir, log);
const tickers: string[] = (JSON.parse(readFileSync(join(demoDir, "manifest.json"), "utf8")).securities as { ticker: string }[]).map((s) =>
  s.ticker
);
const days = tradingDays(manifest.start, manifest.end).map((d) => d.date);
const [start, end, widerEnd] = [days[0], days[19], days[24]];
const KEY = "demo-full-access";
const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const ROUNDS = Number(option("--rounds") ?? 3);
/**
 * `concurrency` of the universe call when given; else the workbench's default. The raw transfer
 * keeps as many pages in flight as the universe call (the Python peer keeps its four).
 */
const CONCURRENCY = option("--concurrency") === undefined ? undefined : Number(option("--concurrency"));
// A mistyped value would make the raw transfer fetch nothing and compare against that.
if (CONCURRENCY !== undefined && !(Number.isInteger(CONCURRENCY) && CONCURRENCY >= 1 && CONCURRENCY <= 16)) {
  console.error(`bench: --concurrency ${option("--concurrency")} is not a whole number from 1 to 16`);
  process.exit(2);
}
const IN_FLIGHT = inFlight(tickers.length, CONCURRENCY).units;
const CLIENT_ONLY = process.argv.includes("--client");
const SPLIT = process.argv.includes("--split");
const AGAINST = option("--against");

const loadAtStart = loadavg()[0];
const NETWORK = ["--latency", "40", "--bandwidth", "20"];
const only = option("--only");
const arrangements: { name: string; args: string[] }[] = [
  { name: "loopback", args: [] },
  { name: `network (${NETWORK.join(" ")})`, args: NETWORK },
].filter((a) => only === undefined || a.name.startsWith(only));
const missing = peerUnavailable();
if (missing) log(missing);
let allOk = true;
for (const arrangement of arrangements) allOk = (await measure(arrangement.name, arrangement.args)) && allOk;
console.log(
  `load average (1 min) ${loadavg()[0].toFixed(2)} at the end, ${
    loadAtStart.toFixed(2)
  } at the start, on ${cpus().length} cores shared with the sandbox; ${V8_FLAGS}`,
);
console.log(allOk ? "all targets met" : "TARGET MISSED");
if (!allOk) process.exitCode = 1;

/** Every way of the pull against one sandbox started with `args`; prints its table, returns whether its targets are met. */
async function measure(arrangement: string, args: string[]): Promise<boolean> {
  const onNetwork = args.length > 0;
  const sandbox = await startSandboxProcess(demoDir, {}, args);
  let peer: PythonPeer | undefined;
  const scratch = mkdtempSync(join(tmpdir(), "bench-universe-"));
  const wb = await connect({ baseUrl: sandbox.baseUrl, apiKey: KEY });
  /** CPU seconds of each run, the bench's own (the client) and the sandbox's: they hold under load, where seconds do not. */
  const cpu: Record<string, { client: number; sandbox: number }> = {};
  const seconds = async <T>(f: () => Promise<T>, name?: string): Promise<[number, T]> => {
    const [t, used, served] = [performance.now(), process.cpuUsage(), sandbox.cpuSeconds()];
    const r = await f();
    const u = process.cpuUsage(used);
    if (name) cpu[name] = { client: (u.user + u.system) / 1e6, sandbox: sandbox.cpuSeconds() - served };
    return [(performance.now() - t) / 1000, r];
  };
  const cpuNote = (name: string) => `; CPU s: client ${cpu[name].client.toFixed(2)}, sandbox ${cpu[name].sandbox.toFixed(2)}`;

  try {
    log(`${arrangement}: ${tickers.length} tickers, ${start} to ${end} (20 trading days)`);
    peer = missing ? undefined : await startPythonPeer(sandbox.baseUrl, KEY, start, end, tickers);
    const universe = async () => {
      const f = await wb.data.eqTaq1Min(tickers, { start, end, concurrency: CONCURRENCY });
      settle();
      return f;
    };
    // Fewer requests in flight than the default, to check the default does not crowd two cores.
    const universe2 = async () => {
      await wb.data.eqTaq1Min(tickers, { start, end, concurrency: 2 });
      settle();
    };
    const sequential = async () => {
      const frames: pl.DataFrame[] = [];
      for (const t of tickers) frames.push(await wb.data.eqTaq1Min(t, { start, end, concurrency: 1 }));
      settle();
      return pl.concat(frames);
    };
    const download = (round: number) => wb.download("eq-taq-1min", { tickers, start, end }, join(scratch, `lake-${round}`));
    const pull = { baseUrl: sandbox.baseUrl, apiKey: KEY, tickers, start, end, concurrency: IN_FLIGHT };
    /** The same pages as the universe call, fetched with plain fetch and not parsed. */
    const raw = () => rawPull(pull);
    const extra: Way[] = [...(SPLIT ? await splitLayers(pull) : []), ...(AGAINST ? [await againstWay(AGAINST, pull)] : [])];
    // Warm every way: the service's file cache, the workbench's meta reads, the peer's imports.
    await raw();
    await universe();
    for (const [, run] of extra) await run();
    await peer?.pull();
    type Round = { seconds: number; client: number; sandbox: number };
    const rounds: Record<string, Round[]> = { raw: [], universe: [], peer: [], download: [], universe2: [], sequential: [] };
    let bytes = 0;
    let frame!: pl.DataFrame;
    let dl!: Awaited<ReturnType<typeof download>>;
    let seqFrame!: pl.DataFrame;
    let peerRows = 0;
    /** Runs one way of this round, timed, and keeps its seconds and CPU with its other rounds. */
    const timed = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const [s, result] = await seconds(run, name);
      (rounds[name] ??= []).push({ seconds: s, ...cpu[name] });
      return result;
    };
    for (let round = 0; round < ROUNDS; round++) {
      bytes = await timed("raw", raw);
      frame = await timed("universe", universe);
      for (const [name, run] of extra) await timed(name, run);
      if (!CLIENT_ONLY) {
        dl = await timed("download", () => download(round));
        await timed("universe2", universe2);
        seqFrame = await timed("sequential", sequential);
      }
      if (peer) {
        const served = sandbox.cpuSeconds();
        const p = await peer.pull();
        rounds.peer.push({ seconds: p.seconds, client: p.cpuSeconds, sandbox: sandbox.cpuSeconds() - served });
        peerRows = p.rows;
      }
    }
    const summary = (name: string) => {
      const xs = rounds[name];
      cpu[name] = { client: median(xs.map((x) => x.client)), sandbox: median(xs.map((x) => x.sandbox)) };
      return median(xs.map((x) => x.seconds));
    };
    const [rawS, uniS] = [summary("raw"), summary("universe")];
    const peerS = peer ? summary("peer") : Number.NaN;
    if (peer && peerRows !== frame.height) throw new Error(`the peer pulled ${peerRows} rows where the workbench pulled ${frame.height}`);
    const row = (name: string, s: number, note: string) => `${name.padEnd(30)} ${s.toFixed(2).padStart(8)}  ${note}`;
    const fmt = (xs: { seconds: number; client: number }[]) =>
      xs.map((x) => `${x.seconds.toFixed(2)} s/${x.client.toFixed(2)} CPU`).join(", ");
    const peerOk = onNetwork || !peer || (peerS / uniS >= 1.1 && cpu.universe.client <= cpu.peer.client);
    const rawOk = onNetwork || uniS / rawS <= 1.15;
    console.log(
      `\n${arrangement}: eq-taq-1min, ${tickers.length} tickers x 20 trading days (${start} to ${end}), every column: ${
        frame.height.toLocaleString("en-US")
      } rows, ${(bytes / 1e6).toFixed(0)} MB of CSV`,
    );
    console.log(`${"way".padEnd(30)} ${"seconds".padStart(8)}  ratio`);
    const clientRows = () => {
      console.log(row("raw transfer (no parsing)", rawS, `baseline of the client's ways${cpuNote("raw")}`));
      for (const [name] of extra) {
        const s = summary(name);
        console.log(row(name, s, `${(s / rawS).toFixed(2)}x raw${cpuNote(name)}`));
      }
      console.log(
        row(
          `universe call into a frame`,
          uniS,
          `${(uniS / rawS).toFixed(2)}x raw${onNetwork ? "" : " (target <= 1.15)"}; ${IN_FLIGHT} in flight (concurrency ${
            CONCURRENCY ?? "by default"
          })${cpuNote("universe")}`,
        ),
      );
      if (peer) {
        console.log(
          row(
            `Python Polars ${peer.polars} peer`,
            peerS,
            `${(peerS / uniS).toFixed(2)}x the universe call's seconds${onNetwork ? "" : " (target >= 1.1)"}; ${
              (peerS / rawS).toFixed(2)
            }x raw${cpuNote("peer")}`,
          ),
        );
      } else console.log(row("Python Polars peer", Number.NaN, `skipped: ${missing}`));
      const others = extra.map(([name]) => `; ${name} ${fmt(rounds[name])}`).join("");
      console.log(
        `  (medians of ${ROUNDS} alternating rounds: raw ${fmt(rounds.raw)}; universe ${fmt(rounds.universe)}${
          CLIENT_ONLY
            ? ""
            : `; download ${fmt(rounds.download)}; concurrency 2 ${fmt(rounds.universe2)}; sequential ${fmt(rounds.sequential)}`
        }${peer ? `; peer ${fmt(rounds.peer)}` : ""}${others})`,
      );
    };
    if (CLIENT_ONLY) {
      clientRows();
      const ok = rawOk && peerOk;
      console.log(`${arrangement}: ${ok ? "targets met" : "TARGET MISSED"} (the frame pull's targets only)`);
      return ok;
    }
    const dlS = summary("download");
    if (dl.rows !== frame.height) throw new Error(`the download wrote ${dl.rows} rows where the universe call pulled ${frame.height}`);
    const [uni2S, seqS] = [summary("universe2"), summary("sequential")];
    if (!frame.frameEqual(seqFrame, true)) throw new Error("the universe frame differs from the sequential pull");
    // Data requests are what the month counts (metadata and account reads are free).
    const used = async () => (await wb.account.quotasRaw()).quotas_usage.monthly_requests;
    await new Promise((r) => setTimeout(r, 1000)); // let the service book the last request of the run before
    const usedBefore = await used();
    const [widerS, wider] = await seconds(() => wb.download("eq-taq-1min", { tickers, start, end: widerEnd }, join(scratch, "lake-0")));
    const widerRequests = (await used()) - usedBefore;

    const [uniTarget, dlTarget] = onNetwork ? [3, 1.2] : [2.5, 1];
    clientRows();
    console.log(
      row(
        "sequential, ticker by ticker",
        seqS,
        `universe call ${(seqS / uniS).toFixed(2)}x faster (target >= ${uniTarget}); raw ${(seqS / rawS).toFixed(2)}x faster${
          cpuNote("sequential")
        }`,
      ),
    );
    console.log(
      row(
        "universe download (Parquet)",
        dlS,
        `${(dlS / uniS).toFixed(2)}x the universe call's seconds (target <= ${dlTarget}); ${
          (seqS / dlS).toFixed(2)
        }x faster than sequential; ${dl.partitions} partitions, ${dl.rows.toLocaleString("en-US")} rows${cpuNote("download")}`,
      ),
    );
    console.log(
      row(
        "universe call, concurrency 2",
        uni2S,
        `${(seqS / uni2S).toFixed(2)}x faster than sequential; ${(uni2S / rawS).toFixed(2)}x raw${cpuNote("universe2")}`,
      ),
    );
    console.log(
      row(
        `download re-run to ${widerEnd}`,
        widerS,
        `${widerRequests} data requests for ${wider.fetched} new partitions (${tickers.length} tickers x 5 days)`,
      ),
    );
    const ok = seqS / uniS >= uniTarget && rawOk && dlS / uniS <= dlTarget && peerOk && widerRequests === tickers.length;
    console.log(`${arrangement}: ${ok ? "targets met" : "TARGET MISSED"}`);
    return ok;
  } finally {
    peer?.stop();
    await sandbox.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
