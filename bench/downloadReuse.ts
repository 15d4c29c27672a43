/**
 * What hashing reused partitions costs: a `wb.download` re-run into a folder that already holds
 * every partition, with provenance recording off (the baseline: nothing is read) and on (each
 * partition's file is read back and hashed, so `--verify` can compare a re-run into the same
 * folder). Over the `tiny` market generated afresh: every ticker's eq-taq-1min for its days.
 * The first download (every partition fetched, recording on) is timed too, for scale. Rounds
 * alternate off and on; the best of each is kept (the machine is shared and noisy).
 *
 *   deno run -A bench/downloadReuse.ts [rounds=5]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { tradingDays } from "../calendar/calendar.ts";
import { connect } from "../workbench/mod.ts";
import { generateMarket } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { SEED } from "./support/sandboxMarkets.ts";

const rounds = Number(Deno.args[0] ?? 5);
const scratch = mkdtempSync(join(tmpdir(), "bench-download-reuse-"));
const market = join(scratch, "tiny");
const manifest = generateMarket({ profile: profileByName("tiny"), seed: SEED, outDir: market });
const tickers: string[] = (JSON.parse(readFileSync(join(market, "manifest.json"), "utf8")).securities as { ticker: string }[]).map((s) =>
  s.ticker
);
const days = tradingDays(manifest.start, manifest.end).map((d) => d.date);
const loadAtStart = loadavg()[0];
const sandbox = await startSandboxProcess(market);
const timed = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
  const t = performance.now();
  const r = await f();
  return [(performance.now() - t) / 1000, r];
};

try {
  const query = { tickers, start: days[0], end: days.at(-1)! };
  const lake = join(scratch, "lake");
  const session = (provenance: boolean) => connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access", provenance, quotaGuard: false });
  const [fetchS, first] = await timed(async () => (await session(true)).download("eq-taq-1min", query, lake));
  const best = { off: Infinity, on: Infinity };
  let hashed = 0;
  for (let round = 0; round < rounds; round++) {
    for (const provenance of [false, true]) {
      const wb = await session(provenance);
      await wb.meta.availability("eq-taq-1min"); // the session's free status read, outside the timing
      const [s, r] = await timed(() => wb.download("eq-taq-1min", query, lake));
      if (r.fetched !== 0) throw new Error(`the re-run fetched ${r.fetched} partitions; expected every one reused`);
      if (provenance) hashed = wb.provenance().downloads![0].reusedPartitions!.filter((p) => p.frameHash).length;
      best[provenance ? "on" : "off"] = Math.min(best[provenance ? "on" : "off"], s);
    }
  }
  const fmt = (s: number) => `${s.toFixed(3)} s`;
  console.log(
    `download-reuse benchmark: ${tickers.length} tickers x ${days.length} days of eq-taq-1min, ${first.partitions} partitions, ${
      first.rows.toLocaleString("en-US")
    } rows; load ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`,
  );
  console.log(`first download (every partition fetched, recording on): ${fmt(fetchS)}`);
  console.log(
    `re-run, every partition reused, best of ${rounds}: recording off ${fmt(best.off)}, on ${
      fmt(best.on)
    } (${hashed} partitions read back and hashed)`,
  );
  console.log(
    `hashing the reused partitions: +${fmt(best.on - best.off)}, ${
      ((best.on - best.off) / fetchS * 100).toFixed(1)
    }% of the first download's time`,
  );
} finally {
  await sandbox.stop();
  rmSync(scratch, { recursive: true, force: true });
}
