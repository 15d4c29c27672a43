/**
 * Writes every kind of file the workbench keeps and reports each one's mode (octal text), for
 * test/workbench/fileModes.test.ts, which runs it under Deno (`deno run -A fileModes.ts <scratch
 * dir> <market dir>`) and under Node (through vite-node), each with the umask it is given; it
 * prints one JSON line. Its environment names the provenance journal
 * (MARKETDATA_PROVENANCE_JOURNAL) and the folder of the local secret (XDG_CONFIG_HOME), both
 * under the scratch folder.
 *
 * - `appends`: a shared and a private file appended to three times (the mode after each), and a
 *   file made 0666 by an older workbench, narrowed on its next append;
 * - `rewrites`: files written atomically twice, shared and private, sync and async;
 * - `lock`: the folder lock while held; `secret`: the local secret and its folder;
 * - `session`: a workbench on the sandbox's app in this process (no port) with a cache and the
 *   provenance journal: three calls (three appends to the journal), then a download and a wider
 *   one (the lake's journal appended, its manifest rewritten), every file and folder it wrote;
 *   `journal`: the provenance journal after those five appends.
 */
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import process from "node:process";
import pl from "nodejs-polars";
import { openInProcessSandbox } from "../../../sandbox/service/inProcess.ts";
import { connect } from "../../../workbench/mod.ts";
import { appendLine, lockFolder, PRIVATE_FILE, writeAtomically, writeAtomicallyAsync } from "../../../workbench/runtime/files.ts";
import { localSecret, localSecretPath } from "../../../workbench/runtime/localSecret.ts";

/** Modes by name (files under `session/` by their path there; folders end in `/`). */
export type ModeReport = Record<string, string[] | string>;

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every file and folder under `root`, by its path relative to it (folders with a trailing `/`). */
function modesUnder(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    found[`${relative(root, path)}${entry.isDirectory() ? "/" : ""}`] = mode(path);
  }
  return found;
}

/** Writes the files into `dir` (empty) and reports their modes. */
async function writeAndReport(dir: string, marketDir: string): Promise<ModeReport> {
  const report: ModeReport = {};
  const shared = join(dir, "shared.jsonl"), own = join(dir, "private.jsonl");
  report.appendShared = [];
  report.appendPrivate = [];
  for (let i = 0; i < 3; i++) {
    appendLine(shared, `{"line":${i}}\n`);
    appendLine(own, `{"line":${i}}\n`, PRIVATE_FILE);
    report.appendShared.push(mode(shared));
    report.appendPrivate.push(mode(own));
  }
  const old = join(dir, "older.jsonl");
  writeFileSync(old, "{}\n");
  chmodSync(old, 0o666);
  appendLine(old, "{}\n", PRIVATE_FILE);
  report.narrowed = mode(old);

  report.rewriteShared = [];
  report.rewritePrivate = [];
  report.rewriteAsync = [];
  const frame = pl.DataFrame({ a: [1, 2, 3] });
  for (let i = 0; i < 2; i++) {
    writeAtomically(join(dir, "manifest.json"), (tmp) => writeFileSync(tmp, `{"n":${i}}`));
    writeAtomically(join(dir, "entry.json"), (tmp) => writeFileSync(tmp, `{"n":${i}}`), PRIVATE_FILE);
    await writeAtomicallyAsync(join(dir, "part.parquet"), async (tmp) => void (await frame.lazy().sinkParquet(tmp).collect()));
    report.rewriteShared.push(mode(join(dir, "manifest.json")));
    report.rewritePrivate.push(mode(join(dir, "entry.json")));
    report.rewriteAsync.push(mode(join(dir, "part.parquet")));
  }

  const release = lockFolder(dir);
  report.lock = mode(join(dir, "_download.lock"));
  release();

  localSecret();
  report.secret = mode(localSecretPath());
  report.secretFolder = mode(join(localSecretPath(), ".."));

  const session = join(dir, "session");
  mkdirSync(session);
  const sb = openInProcessSandbox({ marketDir, settings: { queryBudgetMs: 600_000 } });
  try {
    const wb = await connect({
      baseUrl: sb.baseUrl,
      fetch: sb.fetch,
      apiKey: "demo-full-access",
      cache: join(session, "cache"),
      provenance: true,
    });
    for (const ticker of ["AAPL", "MSFT", "JPM"]) await wb.data.eqDailyOhlc(ticker, { start: "2023-11-20", end: "2023-11-22" });
    await wb.download("eq-taq-1min", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-21" }, join(session, "lake"));
    await wb.download("eq-taq-1min", { tickers: ["AAPL", "MSFT"], start: "2023-11-20", end: "2023-11-22" }, join(session, "lake"));
  } finally {
    sb.close();
  }
  Object.assign(report, Object.fromEntries(Object.entries(modesUnder(session)).map(([path, m]) => [`session/${path}`, m])));
  report.journal = mode(process.env.MARKETDATA_PROVENANCE_JOURNAL!);
  return report;
}

const [dir, marketDir] = process.argv.slice(-2);
console.log(`MODES ${JSON.stringify(await writeAndReport(dir, marketDir))}`);
