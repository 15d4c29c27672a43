/**
 * Workbench benchmark, all in one run against one sandbox:
 * - a fetch of 500,000+ rows with every column of eq-taq-1min into a frame, three ways: the
 *   workbench, a naive client (sequential JSON pages, records into pl.DataFrame) and the raw
 *   transfer of the same pages with no parsing (raw and workbench: medians of three alternating
 *   runs after a warm-up of each). Targets: >= 8x faster than naive, <= 1.5x raw.
 *   `MARKETDATA_PROVENANCE=0` measures the workbench with recording off.
 * - `download` of 5,000,000+ rows into Parquet. Target: peak memory under 1 GB.
 * Each way runs in its own process, so its peak memory (VmHWM) is its own.
 * `--against <checkout>` adds that checkout's workbench and download (its own
 * bench/support/workbenchRun.ts, run from its folder with its modules) against the same
 * sandbox, alternating with this one's: an A/B of two commits' clients in one run.
 *
 *   deno run -A bench/workbench.ts [--against ../other-checkout]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { tradingDays } from "../calendar/calendar.ts";
import { ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { ensureLongMarket } from "./support/workbenchMarket.ts";
import process from "node:process";

const log = (line: string) => console.error(`bench: ${line}`);
const demoDir = join(REPO_ROOT, "data", "demo");
const longDir = join(REPO_ROOT, "data", "bench-long-aapl");
ensureDemoMarket(demoDir, log);
ensureLongMarket(demoDir, longDir, "2002-01-02", log);
const days = tradingDays("2002-01-02", "2024-01-31");
// The most recent 540 trading days hold 518,400 bars: the 500k fetch.
const fetchFrom = days[days.length - 540].date;

const againstAt = process.argv.indexOf("--against");
const AGAINST = againstAt >= 0 ? resolve(process.argv[againstAt + 1] ?? ".") : undefined;
if (AGAINST !== undefined && !existsSync(join(AGAINST, "bench/support/workbenchRun.ts"))) {
  throw new Error(`--against ${AGAINST}: no bench/support/workbenchRun.ts there; give the folder of another checkout`);
}

const sandbox = await startSandboxProcess(longDir);
const scratch = mkdtempSync(join(tmpdir(), "bench-workbench-"));
type Run = { mode: string; seconds: number; rows: number; bytes: number; peakMb: number };
let runs = 0;
/** One way in its own process, into a folder of its own; `root` is the checkout whose runner (and modules) it uses. */
const run = (mode: string, from: string, root = REPO_ROOT): Run => {
  const out = execFileSync(process.execPath, [
    "run",
    "-A",
    join(root, "bench/support/workbenchRun.ts"),
    mode,
    sandbox.baseUrl,
    from,
    join(scratch, `${mode}-${++runs}`),
  ], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Run;
};
try {
  // Warm the service for both ways (its file cache, the workbench's first meta and lookup
  // reads), so every way meets the same server; then raw and workbench alternate three times
  // and the median of each counts (single runs of either varied 1.8-5.5 s in one session).
  run("raw", fetchFrom);
  run("workbench", fetchFrom);
  if (AGAINST) run("workbench", fetchFrom, AGAINST);
  const raws: Run[] = [], wbs: Run[] = [], others: Run[] = [];
  for (let round = 0; round < 3; round++) {
    raws.push(run("raw", fetchFrom));
    wbs.push(run("workbench", fetchFrom));
    if (AGAINST) others.push(run("workbench", fetchFrom, AGAINST));
  }
  const median = (xs: Run[]) => [...xs].sort((a, b) => a.seconds - b.seconds)[1];
  const [raw, wb] = [median(raws), median(wbs)];
  const naive = run("naive", fetchFrom);
  const download = run("download", "2002-01-02");
  const row = (name: string, r: { seconds: number; rows: number; peakMb: number }, note: string) =>
    `${name.padEnd(22)} ${String(Number.isNaN(r.rows) ? "-" : r.rows).padStart(9)} ${r.seconds.toFixed(2).padStart(8)} ${
      r.peakMb.toFixed(0).padStart(8)
    }  ${note}`;
  console.log(`fetch of eq-taq-1min ${"AAPL"} from ${fetchFrom} (every column), raw = same CSV pages, same concurrency, no parsing`);
  console.log(`${"way".padEnd(22)} ${"rows".padStart(9)} ${"seconds".padStart(8)} ${"peak MB".padStart(8)}  ratio`);
  console.log(row("raw transfer", raw, `baseline (${(raw.bytes / 1e6).toFixed(0)} MB of CSV)`));
  console.log(
    row(
      "workbench",
      wb,
      `${(wb.seconds / raw.seconds).toFixed(2)}x raw (target <= 1.5); ${
        (naive.seconds / wb.seconds).toFixed(1)
      }x faster than naive (target >= 8)`,
    ),
  );
  console.log(
    `  (medians of three: raw ${raws.map((r) => r.seconds.toFixed(2)).join(" ")} s; workbench ${
      wbs.map((r) => r.seconds.toFixed(2)).join(" ")
    } s, provenance recording ${process.env.MARKETDATA_PROVENANCE === "0" ? "off" : "on (the default)"})`,
  );
  console.log(row("naive JSON client", naive, `${(naive.seconds / raw.seconds).toFixed(2)}x raw`));
  console.log(
    row(
      "download (Parquet)",
      download,
      `peak ${download.peakMb.toFixed(0)} MB (target < 1024); ${
        Math.round(download.rows / download.seconds).toLocaleString("en-US")
      } rows/s`,
    ),
  );
  if (AGAINST) {
    const other = median(others);
    const otherDownload = run("download", "2002-01-02", AGAINST);
    const downloadAgain = run("download", "2002-01-02");
    console.log(`against ${AGAINST} (its own runner and modules, same sandbox, alternating):`);
    console.log(
      row(
        "its workbench",
        other,
        `this one ${(wb.seconds / other.seconds).toFixed(2)}x its seconds (medians of three: ${
          others.map((r) => r.seconds.toFixed(2)).join(" ")
        } s)`,
      ),
    );
    console.log(
      row(
        "its download",
        otherDownload,
        `this one ${(downloadAgain.seconds / otherDownload.seconds).toFixed(2)}x its seconds (this one again right after: ${
          downloadAgain.seconds.toFixed(2)
        } s, peak ${downloadAgain.peakMb.toFixed(0)} MB)`,
      ),
    );
  }
  const ok = wb.seconds <= 1.5 * raw.seconds && naive.seconds >= 8 * wb.seconds && download.peakMb < 1024 && download.rows >= 5_000_000 &&
    wb.rows >= 500_000;
  console.log(ok ? "all targets met" : "TARGET MISSED");
  if (!ok) process.exitCode = 1;
} finally {
  await sandbox.stop();
  rmSync(scratch, { recursive: true, force: true });
}
