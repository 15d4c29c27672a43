/**
 * The session's interrupt, and each call's abort signal. A data call or download takes, when it
 * starts, the session's current interrupt signal together with the `signal` it was given (if
 * any); `interruptCalls()` aborts every call running then and none started later. In a notebook
 * the kernel helpers call it on the kernel's interrupt (JupyterLab's stop button, through the
 * project's kernel relay); a script may call it from its own SIGINT handler.
 *
 * The state lives on `globalThis` under a registered symbol, so that two copies of the
 * workbench loaded in one kernel (imported by two paths) share one interrupt.
 */

/** Why a call's signal fired: the session's interrupt, or the caller's own signal. */
/** What stopped a call: the session's interrupt, or the call's own `signal` with its reason. */
export type AbortCause = { by: "interrupt" } | { by: "signal"; reason: unknown };

interface Interrupts {
  controller: AbortController;
  /** Calls running now (started and not yet settled). */
  running: number;
}

const KEY = Symbol.for("market-workbench.interrupts");

function interrupts(): Interrupts {
  const store = globalThis as unknown as Record<symbol, Interrupts | undefined>;
  return (store[KEY] ??= { controller: new AbortController(), running: 0 });
}

/**
 * Aborts every data call and download running now: each ends with an `InterruptedError` that
 * keeps the rows fetched so far (a download keeps its finished partitions on disk). Calls
 * started afterwards are not affected. Returns how many calls were running.
 *
 * @example
 * ```ts
 * import { interruptCalls } from "./workbench/mod.ts";
 * Deno.addSignalListener("SIGINT", () => interruptCalls()); // Ctrl+C stops the pull, not the script
 * ```
 */
export function interruptCalls(): number {
  const state = interrupts();
  const running = state.running;
  const old = state.controller;
  state.controller = new AbortController();
  old.abort(new DOMException("Interrupted", "AbortError"));
  return running;
}

/** The abort signal of one call: the session's interrupt and the call's own `signal`, together. */
export interface CallAbort {
  /** Fires on the session's interrupt or the call's own signal, whichever comes first. */
  readonly signal: AbortSignal;
  /** Which fired, once one has; undefined before. */
  cause(): AbortCause | undefined;
  /** The call settled: it no longer counts as running. */
  release(): void;
}

/**
 * The signal of a call starting now, counted as running until `release()`.
 *
 * @example
 * ```ts
 * const abort = callAbort(query.signal);
 * try { await transport.get(path, params, undefined, abort.signal); } finally { abort.release(); }
 * ```
 */
export function callAbort(given?: AbortSignal): CallAbort {
  const state = interrupts();
  const session = state.controller.signal;
  const signal = given ? AbortSignal.any([session, given]) : session;
  state.running++;
  let released = false;
  return {
    signal,
    cause: () => (session.aborted ? { by: "interrupt" } : given?.aborted ? { by: "signal", reason: given.reason } : undefined),
    release: () => {
      if (released) return;
      released = true;
      state.running--;
    },
  };
}

/**
 * `promise`, or the signal's reason as soon as `signal` fires, whichever settles first. For
 * waits that do not take a signal themselves (a body being read, a verdict awaited); the
 * promise left behind has its rejection handled.
 *
 * @example
 * ```ts
 * const body = await untilAborted(readBody(response), signal);
 * ```
 */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
