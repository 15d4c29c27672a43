/**
 * The budget of the sandbox's cache memory (SANDBOX_FRAME_CACHE_MB), and how the sandbox reads
 * its settings in megabytes. A module of its own, without Polars, so the serving process's main
 * thread (server.ts), which only shares the budget out, does not load the engine its workers use.
 */

/** The sandbox's cache memory when SANDBOX_FRAME_CACHE_MB does not say: every worker's caches together. */
export const DEFAULT_CACHE_MB = 128;

/** An environment variable under Deno (workers included, where `process` may be absent) or Node. */
export function environment(name: string): string | undefined {
  const g = globalThis as { Deno?: { env: { get(n: string): string | undefined } }; process?: { env: Record<string, string | undefined> } };
  return g.Deno ? g.Deno.env.get(name) : g.process?.env[name];
}

/**
 * A setting in megabytes read from the environment variable `name` (its text `megabytes`):
 * `fallback` when unset or empty, else a number of 0 or more, or an error naming the variable,
 * the value and what 0 does (`zeroDoes`).
 *
 * @example
 * ```ts
 * megabytesSetting("SANDBOX_FRAME_CACHE_MB", "64", 128, "turns the caches off"); // 64
 * ```
 */
export function megabytesSetting(name: string, megabytes: string | undefined, fallback: number, zeroDoes: string): number {
  if (megabytes === undefined || megabytes === "") return fallback;
  const mb = Number(megabytes);
  if (!(mb >= 0)) throw new Error(`${name} '${megabytes}' is not a number of megabytes (0 ${zeroDoes})`);
  return mb;
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
  return megabytesSetting("SANDBOX_FRAME_CACHE_MB", megabytes, DEFAULT_CACHE_MB, "turns the caches off");
}
