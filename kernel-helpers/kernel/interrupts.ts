/**
 * The kernel's interrupt for the workbench's calls. Deno's Jupyter kernel ignores an
 * `interrupt_request`; the project's kernel relay (scripts/jupyter-kernel/) turns one
 * (JupyterLab's stop button, jupyter_client's `interrupt_kernel`) into SIGUSR1 to the Deno
 * process while a cell runs, if the process listens for it: this listener. It interrupts every
 * workbench data call and download running (`interruptCalls()`), which end with an
 * InterruptedError; the kernel and its variables stay.
 */
import { interruptCalls } from "../../workbench/mod.ts";

const KEY = Symbol.for("market-workbench.interruptListener");

interface DenoSignals {
  addSignalListener(signal: "SIGUSR1", handler: () => void): void;
}

/**
 * Listens for the relay's SIGUSR1 (idempotent). Returns whether it listens (not where the
 * platform has no SIGUSR1).
 *
 * @example
 * ```ts
 * listenForInterrupts(); // done on import of the kernel helpers in a kernel
 * ```
 */
export function listenForInterrupts(): boolean {
  const store = globalThis as Record<symbol, unknown>;
  if (store[KEY]) return true;
  const deno = (globalThis as { Deno?: DenoSignals }).Deno;
  if (!deno?.addSignalListener) return false;
  try {
    deno.addSignalListener("SIGUSR1", () => {
      if (interruptCalls() > 0) return;
      console.error(
        "Interrupt: no workbench data call or download is running, and the Deno kernel cannot stop other code. Restart the kernel to stop it (its variables are lost).",
      );
    });
  } catch {
    return false;
  }
  store[KEY] = true;
  return true;
}
