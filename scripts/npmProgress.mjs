// npm's install step with progress: npm prints nothing for a minute or more on a fresh clone,
// so this runs it with its HTTP log on, counts the packages it fetches, and prints how long it
// has run and how many it has fetched every few seconds. Plain Node: it runs before
// node_modules exists.
import { spawn } from "node:child_process";
import { repoRoot } from "./paths.mjs";
import process from "node:process";

const FETCH = /^npm http fetch /;

/**
 * Runs `cmd args` (npm) with `--loglevel=http`, calling `report` every `everySeconds` with the
 * seconds so far and the packages fetched. Resolves like run.mjs's `run`: the exit status and
 * the output, with npm's HTTP lines taken out of stderr (so an error shows npm's own message).
 *
 * @param {string} cmd the npm executable
 * @param {string[]} args npm's arguments, e.g. ["ci", "--no-audit"]
 * @param {{ report: (seconds: number, fetched: number) => void, everySeconds?: number, cwd?: string, env?: NodeJS.ProcessEnv }} opts
 * @returns {Promise<{status: number | null, stdout: string, stderr: string, fetched: number, error?: Error}>}
 * @example
 * await npmWithProgress("npm", ["ci"], { report: (s, n) => console.log(`${s} s, ${n} packages fetched`) });
 */
export function npmWithProgress(cmd, args, opts) {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 1000);
  return new Promise((resolve) => {
    const child = spawn(cmd, [...args, "--loglevel=http"], {
      cwd: opts.cwd ?? repoRoot,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "", stderr = "", partial = "", fetched = 0;
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop();
      for (const line of lines) {
        if (FETCH.test(line)) fetched++;
        else stderr += `${line}\n`;
      }
    });
    const timer = setInterval(() => opts.report(seconds(), fetched), (opts.everySeconds ?? 10) * 1000);
    const done = (result) => {
      clearInterval(timer);
      if (partial && !FETCH.test(partial)) stderr += partial;
      resolve({ stdout, stderr, fetched, ...result });
    };
    child.on("error", (error) => done({ status: null, error }));
    child.on("close", (status, signal) => done({ status, error: signal ? new Error(`killed by ${signal}`) : undefined }));
  });
}
