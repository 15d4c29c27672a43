/**
 * Benchmarks of the client run it as the notebook kernel does: with the kernel's V8 flags
 * (scripts/kernelSettings.mjs), which V8 reads only when a process starts.
 */
import { spawnSync } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { KERNEL_V8_FLAGS } from "../../scripts/kernelSettings.mjs";

/**
 * Re-runs this benchmark with the notebook kernel's V8 flags (DENO_V8_FLAGS) when it was
 * started without them, and exits with its status; returns when they are in force, or when the
 * command line has `--v8-defaults` (V8's own defaults, to compare). Call it before any work.
 * Returns the line saying which.
 *
 * @example
 * ```ts
 * const v8Line = runAsNotebookKernel(); // "client V8 flags: the notebook kernel's (--initial-heap-size=128)"
 * ```
 */
export function runAsNotebookKernel(): string {
  if (process.argv.includes("--v8-defaults")) return "client V8 flags: V8's defaults (--v8-defaults), not the notebook kernel's";
  if (process.env.DENO_V8_FLAGS !== KERNEL_V8_FLAGS) {
    const script = fileURLToPath(Deno.mainModule);
    const child = spawnSync(Deno.execPath(), ["run", "-A", script, ...Deno.args], {
      stdio: "inherit",
      env: { ...process.env, DENO_V8_FLAGS: KERNEL_V8_FLAGS },
    });
    process.exit(child.status ?? 1);
  }
  return `client V8 flags: the notebook kernel's (${KERNEL_V8_FLAGS})`;
}
