/**
 * One side of bench/lakeFlips.ts, run in a child process so that a reader's panic (an abort,
 * exit 134) is seen as such: `scan` reads the folder through `wb.scan` and prints the frame's
 * rows and hash; `download` re-runs the download that wrote it and prints what it fetched and
 * warned, then the scan's hash. Prints one JSON line; an error prints its class and message.
 *
 *   deno run -A bench/support/lakeFlipChild.ts scan|download <base URL> <dir> <JSON query>
 */
import process from "node:process";
import { connect, frameHash } from "../../workbench/mod.ts";

const [mode, baseUrl, dir, json] = process.argv.slice(2);
const wb = await connect({ baseUrl, apiKey: "demo-full-access", quotaGuard: false });
const warnings: string[] = [];
console.warn = (m: unknown) => void warnings.push(String(m));
try {
  let fetched: number | undefined;
  if (mode === "download") fetched = (await wb.download("eq-taq-1min", JSON.parse(json), dir)).fetched;
  const frame = wb.scan(dir).collectSync().sort(["Ticker", "BarDateTime"]);
  console.log(JSON.stringify({ ok: true, fetched, warnings, rows: frame.height, hash: frameHash(frame) }));
} catch (error) {
  console.log(
    JSON.stringify({ ok: false, warnings, error: (error as Error).constructor.name, message: (error as Error).message.split("\n")[0] }),
  );
}
