/**
 * The lake read in place by other engines (issue 37, item 2): downloads of the demo market's
 * 1-minute bars, option analytics (two roots into one folder), daily bars of a universe with a
 * name delisted mid-range, and ticks, each read by Polars (`pl.scan_parquet(folder,
 * hive_partitioning=True)`), pyarrow (`pyarrow.dataset.dataset(folder, partitioning="hive")`),
 * DuckDB (`read_parquet('folder/**\/*.parquet', hive_partitioning = true)` after
 * `SET TimeZone = 'America/New_York'`), pandas and, where installed, Spark
 * (`spark.read.parquet(folder)` with `spark.sql.session.timeZone` set): rows read against
 * `wb.scan`'s, and the first time each shows. Engines the Python lacks are said and skipped.
 *
 *   deno run -A bench/lakeEngines.ts [market folder, default data/demo] [python, default python3]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "../workbench/mod.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { ensureDemoMarket } from "./support/sandboxMarkets.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";

const demoDir = Deno.args[0] ?? join(REPO_ROOT, "data", "demo");
const python = Deno.args[1] ?? "python3";
ensureDemoMarket(demoDir, (line) => console.error(`bench: ${line}`));
const sandbox = await startSandboxProcess(demoDir);
const scratch = mkdtempSync(join(tmpdir(), "bench-lake-engines-"));
const quiet = console.warn;
try {
  const wb = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access", quotaGuard: false, provenance: false });
  const lakes = [
    {
      name: "bars",
      dataset: "eq-taq-1min",
      query: { tickers: ["AAPL", "MSFT"], start: "2023-11-13", end: "2023-11-17" },
      time: "BarDateTime",
    },
    {
      name: "greeks",
      dataset: "opt-greeks-daily",
      query: { tickers: ["AAPL"], start: "2023-11-13", end: "2023-11-14" },
      time: "UnderLastMidTime",
    },
    {
      name: "greeks",
      dataset: "opt-greeks-daily",
      query: { tickers: ["MSFT"], start: "2023-11-13", end: "2023-11-14" },
      time: "UnderLastMidTime",
    },
    {
      name: "daily",
      dataset: "eq-daily-ohlc",
      query: { tickers: ["AAPL", "HES", "MSFT"], start: "2023-12-01", end: "2024-01-31" },
      time: null,
    },
    { name: "ticks", dataset: "eq-taq", query: { tickers: ["AAPL"], start: "2023-11-13", end: "2023-11-13" }, time: "EventDateTime" },
  ];
  const folders = new Map<string, { dir: string; rows: number; time: string | null }>();
  for (const lake of lakes) {
    const dir = join(scratch, lake.name);
    const warned: string[] = [];
    console.warn = (m: unknown) => void warned.push(String(m));
    const result = await wb.download(lake.dataset, lake.query, dir);
    console.warn = quiet;
    const rows = wb.scan(dir).collectSync().height;
    console.log(
      `${lake.dataset} ${JSON.stringify(lake.query)} into ${lake.name}/: fetched ${result.fetched} partitions, ${
        rows.toLocaleString("en-US")
      } rows in the folder${result.warnings.length ? `; warned: ${result.warnings.join(" | ")}` : ""}`,
    );
    folders.set(lake.name, { dir, rows, time: lake.time });
  }
  const run = spawnSync(python, [join(REPO_ROOT, "bench", "support", "lakeEngines.py"), JSON.stringify([...folders.values()])], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`${python} failed: ${run.stderr}`);
  const [head, ...lines] = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
  console.log(
    `engines: ${Object.entries(head.engines).map(([e, v]) => `${e} ${v}`).join(", ")}${
      head.missing.length ? `; not installed: ${head.missing.join(", ")}` : ""
    }`,
  );
  for (const l of lines) {
    const name = [...folders].find(([, f]) => f.dir === l.dir)![0];
    console.log(
      `${name.padEnd(7)} ${l.engine.padEnd(8)} ${
        l.error
          ? `ERROR ${l.error}`
          : `${l.rows === l.expected ? "rows equal" : `ROWS ${l.rows} != ${l.expected}`}${l.first ? `; first ${l.first}` : ""}`
      }`,
    );
  }
} finally {
  console.warn = quiet;
  await sandbox.stop();
  rmSync(scratch, { recursive: true, force: true });
}
