/**
 * Reads an environment variable in Deno and in Node alike (MARKETDATA_BASE_URL and friends).
 * Deno without --allow-env reads as unset rather than throwing.
 *
 * @example
 * ```ts
 * const baseUrl = envVar("MARKETDATA_BASE_URL"); // string or undefined
 * ```
 */
export function envVar(name: string): string | undefined {
  const g = globalThis as { Deno?: { env: { get(n: string): string | undefined } }; process?: { env: Record<string, string | undefined> } };
  try {
    return g.Deno ? g.Deno.env.get(name) : g.process?.env[name];
  } catch {
    return undefined;
  }
}
