/**
 * Sandbox start-up benchmark: the CPU seconds and the wall seconds a sandbox process takes from
 * its spawn to its `ready` line, on one worker and on two, over the tiny market. A test suite
 * starts some forty of them, so their start is a cost the whole suite pays.
 *
 * `--against <checkout>` starts that checkout's sandbox too, alternating with this one's round by
 * round, and prints this one's medians as a ratio of that one's (the same-run baseline).
 *
 *   deno run -A bench/sandboxStart.ts [--against ../other-checkout] [--rounds 8]
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateMarket } from "../sandbox/market/generate.ts";
import { profileByName } from "../sandbox/market/profiles.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { loadAverages, median } from "./support/stats.ts";

const option = (name: string) => (Deno.args.includes(name) ? Deno.args[Deno.args.indexOf(name) + 1] : undefined);
const ROUNDS = Number(option("--rounds") ?? 8);
const against = option("--against");
if (against !== undefined && !existsSync(join(resolve(against), "sandbox", "service", "cli.ts"))) {
  console.error(`bench: --against ${against} is not a checkout of this repository (no sandbox/service/cli.ts)`);
  Deno.exit(2);
}
if (!(Number.isInteger(ROUNDS) && ROUNDS > 0)) {
  console.error(`bench: --rounds ${option("--rounds")} is not a whole number of rounds above 0`);
  Deno.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), "bench-start-"));
const marketDir = join(scratch, "tiny");
console.error("bench: generating the tiny market (seed 42) ...");
generateMarket({ profile: profileByName("tiny"), seed: 42, outDir: marketDir });

/** Seconds of CPU and of wall clock from spawn to `ready`. */
async function start(workers: number, root?: string): Promise<{ cpu: number; wall: number }> {
  const began = performance.now();
  const sb = await startSandboxProcess(marketDir, {}, ["--workers", String(workers)], root);
  const sample = { cpu: sb.cpuSeconds(), wall: (performance.now() - began) / 1000 };
  await sb.stop();
  return sample;
}

const ways: { name: string; root?: string }[] = [
  { name: "this checkout" },
  ...(against ? [{ name: against, root: resolve(against) }] : []),
];
const samples = new Map<string, { cpu: number[]; wall: number[] }>();
console.log(`load average at start: ${loadAverages()}`);
for (let round = 0; round < ROUNDS; round++) {
  // Alternating, and each round in the other order, so neither way always follows the other.
  for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
    for (const workers of [1, 2]) {
      const key = `${way.name}\u0000${workers}`;
      const s = samples.get(key) ?? { cpu: [], wall: [] };
      const { cpu, wall } = await start(workers, way.root);
      s.cpu.push(cpu);
      s.wall.push(wall);
      samples.set(key, s);
    }
  }
}
for (const workers of [1, 2]) {
  const [mine, base] = ways.map((w) => samples.get(`${w.name}\u0000${workers}`)!);
  const figures = (s: typeof mine) => `${median(s.cpu).toFixed(2)} CPU s, ${median(s.wall).toFixed(2)} s to ready`;
  console.log(
    `${workers} worker${workers === 1 ? " " : "s"}: this checkout ${figures(mine)}` +
      (base
        ? `; ${against} ${figures(base)}; ratio ${(median(mine.cpu) / median(base.cpu)).toFixed(2)}x the CPU, ${
          (median(mine.wall) / median(base.wall)).toFixed(2)
        }x the wall`
        : ""),
  );
}
console.log(`medians of ${ROUNDS} starts each; load average at the end: ${loadAverages()}`);
rmSync(scratch, { recursive: true, force: true });
