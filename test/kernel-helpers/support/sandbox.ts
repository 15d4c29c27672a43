/** A sandbox on the run's tiny market for the kernel test. */
import { spawnSandbox } from "../../../workbench/sandbox.ts";

export interface RunningSandbox {
  baseUrl: string;
  /** Stops the server and waits for it to exit. */
  stop: () => Promise<void>;
}

export async function startNativeSandbox(marketDir: string, statePath: string): Promise<RunningSandbox> {
  const { baseUrl, stop } = await spawnSandbox(["--port", "0", "--data", marketDir, "--state", statePath, "--workers", "1"], { readyTimeoutMs: 120_000 });
  return { baseUrl, stop };
}
