/**
 * The budget of the sandbox's cache memory (SANDBOX_FRAME_CACHE_MB). A module of its own, without
 * Polars, so the serving process's main thread (server.ts), which only shares the budget out,
 * does not load the engine its workers use.
 */

/** The sandbox's cache memory when SANDBOX_FRAME_CACHE_MB does not say: every worker's caches together. */
export const DEFAULT_CACHE_MB = 128;

/** An environment variable under Deno (workers included, where `process` may be absent) or Node. */
export function environment(name: string): string | undefined {
  const g = globalThis as { Deno?: { env: { get(n: string): string | undefined } }; process?: { env: Record<string, string | undefined> } };
  return g.Deno ? g.Deno.env.get(name) : g.process?.env[name];
}

/**
 * Megabytes of SANDBOX_FRAME_CACHE_MB (the default when unset), checked.
 *
 * @example
 * ```ts
 * cacheBudgetMb("64"); // 64
 * ```
 */
export function cacheBudgetMb(megabytes: string | undefined = environment("SANDBOX_FRAME_CACHE_MB")): number {
  if (megabytes === undefined || megabytes === "") return DEFAULT_CACHE_MB;
  const mb = Number(megabytes);
  if (!(mb >= 0)) throw new Error(`SANDBOX_FRAME_CACHE_MB '${megabytes}' is not a number of megabytes (0 turns the caches off)`);
  return mb;
}
