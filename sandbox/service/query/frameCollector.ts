/**
 * Collections paced by the Polars frames a worker lets go. A frame's buffers live outside V8's
 * heap and are freed only when V8 collects the frame's small JavaScript wrapper (and the lazy
 * plans that share its buffers). V8 schedules its collections by the growth of its own heap,
 * which those wrappers barely add to, so the frames a worker let go (cache entries evicted,
 * pages answered) stayed resident, and under load the sandbox held several times its caches.
 * Most of them are young when let go (a page's frames and plans live for its request), so a
 * young-generation collection, a scavenge of about a millisecond, frees them: the worker asks
 * for one each time the frames it let go add up to the pace (SANDBOX_COLLECT_MB, 4 MB by
 * default; 0 leaves collections to V8). It needs V8's `gc` function (`--expose-gc`, among
 * the sandbox command's V8 flags); without it (the app in a test process) nothing is done.
 * A module without Polars, so the main thread (server.ts) can report it at start.
 */
import { environment, megabytesSetting } from "./cacheBudget.ts";

/** Megabytes of let-go frames between collections when SANDBOX_COLLECT_MB does not say. */
export const DEFAULT_COLLECT_MB = 4;

/** V8's collection function, as `--expose-gc` gives it. */
export type Collect = (options: { type: "minor" | "major" }) => unknown;

/** The `gc` function of this isolate, when V8 exposes it. */
function exposedCollect(): Collect | undefined {
  const collect = (globalThis as { gc?: unknown }).gc;
  return typeof collect === "function" ? (collect as Collect) : undefined;
}

/**
 * Megabytes of SANDBOX_COLLECT_MB (the default when unset), checked.
 *
 * @example
 * ```ts
 * collectPaceMb("16"); // 16
 * ```
 */
export function collectPaceMb(megabytes: string | undefined = environment("SANDBOX_COLLECT_MB")): number {
  return megabytesSetting("SANDBOX_COLLECT_MB", megabytes, DEFAULT_COLLECT_MB, "leaves collections to V8");
}

/**
 * Counts the bytes of frames let go and asks for a young-generation collection, on a later
 * turn of the event loop (never inside a request's own code), once they reach `paceBytes`;
 * one request at a time.
 *
 * @example
 * ```ts
 * const pacer = new CollectionPacer(8 * 2 ** 20, exposedCollect());
 * pacer.letGo(6 * 2 ** 20); // nothing yet
 * pacer.letGo(6 * 2 ** 20); // a scavenge on the next turn
 * ```
 */
export class CollectionPacer {
  #pending = false;
  #letGo = 0;
  /** Collections asked for so far. */
  collections = 0;

  constructor(readonly paceBytes: number, readonly collect: Collect | undefined) {}

  /** Whether this pacer ever collects (a pace above 0 and V8's `gc` at hand). */
  get active(): boolean {
    return this.paceBytes > 0 && this.collect !== undefined;
  }

  /** `bytes` of frames are no longer used by this worker. */
  letGo(bytes: number): void {
    if (!this.active || !(bytes > 0)) return;
    this.#letGo += bytes;
    if (this.#letGo < this.paceBytes || this.#pending) return;
    this.#letGo = 0;
    this.#pending = true;
    setTimeout(() => {
      this.#pending = false;
      this.collections++;
      this.collect!({ type: "minor" });
    }, 0);
  }
}

const shared = new CollectionPacer(collectPaceMb() * 2 ** 20, exposedCollect());

/**
 * Tells this worker's pacer that frames of `bytes` are let go (see CollectionPacer); a
 * function is asked for the size only when the pacer collects at all, so a page's frame is
 * not measured for nothing.
 *
 * @example
 * ```ts
 * letGo(() => estimatedBytes(page.frame));
 * ```
 */
export function letGo(bytes: number | (() => number)): void {
  if (shared.active) shared.letGo(typeof bytes === "function" ? bytes() : bytes);
}

/**
 * The start-up line about collections: their pace, or why frames wait for V8's own.
 *
 * @example
 * ```ts
 * collectionReport(4, exposedCollect()); // "memory: a young-generation collection every 4 MB of frames let go (SANDBOX_COLLECT_MB)"
 * ```
 */
export function collectionReport(paceMb: number = collectPaceMb(), collect: Collect | undefined = exposedCollect()): string {
  if (paceMb === 0) return "memory: frames let go wait for V8's own collections (SANDBOX_COLLECT_MB=0)";
  if (collect === undefined) {
    return "memory: frames let go wait for V8's own collections (V8's gc is not exposed: run with --v8-flags=--expose-gc)";
  }
  return `memory: a young-generation collection every ${paceMb} MB of frames let go (SANDBOX_COLLECT_MB)`;
}
