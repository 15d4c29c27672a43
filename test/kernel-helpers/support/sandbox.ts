/**
 * A sandbox on the run's tiny market for the kernel test, run by the native Deno binary: npm's
 * `node_modules/.bin/deno` is a Node launcher that spawns Deno, so signalling the launcher would
 * leave the server running after the test.
 */
import { spawn } from "node:child_process";
import { denoPath } from "../../../scripts/paths.mjs";

export interface RunningSandbox {
  baseUrl: string;
  /** Stops the server and waits for it to exit. */
  stop: () => Promise<void>;
}

export async function startNativeSandbox(marketDir: string, statePath: string): Promise<RunningSandbox> {
  const child = spawn(denoPath(), ["run", "-A", "sandbox/service/cli.ts", "--port", "0", "--data", marketDir, "--state", statePath], {
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (d) => {
      stdout += d;
      const ready = /^ready (\S+)$/m.exec(stdout);
      if (ready) resolve(ready[1]);
    });
    child.on("exit", (code) => reject(new Error(`The sandbox exited with ${code} before it was ready:\n${stderr}`)));
    setTimeout(() => reject(new Error(`The sandbox was not ready after 30 s:\n${stderr}`)), 30_000).unref();
  });
  return {
    baseUrl,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
