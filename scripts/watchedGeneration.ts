/**
 * Market generation in a child process that a watchdog restarts when it stops making progress.
 *
 * Why: once, on a machine loaded beside the test suite, the generator's main thread spun inside
 * the Deno binary (no JavaScript on its stack, no system call) and never finished a day again;
 * the same seed generated normally before and after. Nothing inside that process can notice it,
 * so the demo's own process watches the child's per-day progress lines instead, kills a child
 * that has been silent too long, and starts it again. The generator writes into a work folder
 * that is renamed into place only at the end, so a killed attempt leaves nothing half-written
 * behind but that folder, which is removed here.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Progress } from "../sandbox/market/generate.ts";
import { denoPath, repoRoot } from "./paths.mjs";

/** One generated day (days so far, days in all, its date), as the market CLI prints it with `--json-progress`. */
export type DayProgress = Pick<Progress, "day" | "days" | "date">;

/** Settings of {@link generateWatched}. */
export interface WatchedGeneration {
  /** Profile name (`tiny`, `demo`, `large`). */
  profile: string;
  /** The market's seed. */
  seed: number;
  /** Folder the market is generated into (replaced when the generation succeeds). */
  outDir: string;
  /** Worker threads writing equity days. */
  workers: number;
  /** Seconds without a new day after which an attempt counts as stalled and is killed. */
  stallSeconds: number;
  /** Attempts in all, the first included. */
  attempts: number;
  /** Called for every generated day. */
  onProgress?: (p: DayProgress) => void;
  /** Called when a stalled attempt was killed and the next one starts. */
  onRestart?: (attempt: number, silentSeconds: number) => void;
  /** The child's command line; by default the market CLI on this Deno. Tests replace it. */
  command?: readonly string[];
}

/** Raised when every attempt stalled, or when the generator itself failed. */
export class GenerationFailed extends Error {
  override name = "GenerationFailed";
}

const marketCli = join(repoRoot, "sandbox", "market", "cli.ts");

type Outcome = { kind: "done" } | { kind: "stalled"; silentSeconds: number; pid: number } | { kind: "failed"; message: string };

/**
 * Generates a market in a child process, restarting an attempt that goes `stallSeconds`
 * without finishing a day; rejects with {@link GenerationFailed} when the generator fails or
 * every attempt stalls.
 *
 * @example
 * ```ts
 * await generateWatched({ profile: "demo", seed: 42, outDir: "data/demo", workers: 2, stallSeconds: 90, attempts: 3 });
 * ```
 */
export async function generateWatched(settings: WatchedGeneration): Promise<void> {
  // Zero attempts would return as if the market had been generated.
  if (!(Number.isInteger(settings.attempts) && settings.attempts >= 1)) {
    throw new RangeError(`attempts ${settings.attempts} is not a whole number of 1 or more`);
  }
  if (!(settings.stallSeconds > 0)) throw new RangeError(`stallSeconds ${settings.stallSeconds} is not a number of seconds above 0`);
  const command = settings.command ??
    [
      denoPath(),
      "run",
      "-A",
      marketCli,
      "--profile",
      settings.profile,
      "--seed",
      String(settings.seed),
      "--out",
      settings.outDir,
      "--workers",
      String(settings.workers),
      "--json-progress",
    ];
  for (let attempt = 1; attempt <= settings.attempts; attempt++) {
    const outcome = await runAttempt(command, settings);
    if (outcome.kind === "done") return;
    if (outcome.kind === "failed") throw new GenerationFailed(outcome.message);
    // The killed attempt's work folder (the generator names it after its process).
    rmSync(`${settings.outDir}.partial-${outcome.pid}`, { recursive: true, force: true });
    if (attempt === settings.attempts) {
      throw new GenerationFailed(
        `The market generation made no progress for ${
          outcome.silentSeconds.toFixed(0)
        } s in each of ${settings.attempts} attempts; it was stopped each time`,
      );
    }
    settings.onRestart?.(attempt + 1, outcome.silentSeconds);
  }
}

/** One child: its progress lines reset the watchdog; silence past the limit kills it. */
function runAttempt(command: readonly string[], settings: WatchedGeneration): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "pipe"], cwd: repoRoot });
    let lastProgress = performance.now();
    let stalledAfter: number | undefined;
    let stderr = "";
    createInterface({ input: child.stdout! }).on("line", (line) => {
      // The CLI's other lines (its summary) are not progress.
      if (!line.startsWith("{")) return;
      let progress: DayProgress;
      try {
        progress = JSON.parse(line);
      } catch {
        return;
      }
      lastProgress = performance.now();
      settings.onProgress?.(progress);
    });
    // Only the end matters for a failure message; the rest could be long.
    child.stderr!.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    const watch = setInterval(() => {
      const silent = (performance.now() - lastProgress) / 1000;
      if (silent < settings.stallSeconds || stalledAfter !== undefined) return;
      stalledAfter = silent;
      child.kill("SIGKILL");
    }, Math.min(1000, settings.stallSeconds * 250));
    child.on("error", (e) => {
      clearInterval(watch);
      resolve({ kind: "failed", message: `The market generator could not start: ${e.message}` });
    });
    child.on("close", (code, signal) => {
      clearInterval(watch);
      if (stalledAfter !== undefined) resolve({ kind: "stalled", silentSeconds: stalledAfter, pid: child.pid! });
      else if (code === 0) resolve({ kind: "done" });
      else {resolve({
          kind: "failed",
          message: `The market generator ended with ${signal ?? `exit code ${code}`}: ${stderr.trim() || "(nothing on stderr)"}`,
        });}
    });
  });
}
