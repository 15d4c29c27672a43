/**
 * Where a sandbox started by `sandbox()` or the `market-workbench sandbox` command keeps its
 * generated markets, the records of running sandboxes (to reuse them) and their logs.
 *
 * - Run from this repository's TypeScript sources (a checkout): the repository's
 *   `data/<profile>` and `.cache/`, as `npm run demo` and the tests expect.
 * - Run from the installed package (its built JavaScript): a per-user cache folder,
 *   `$XDG_CACHE_HOME/market-workbench` (`~/.cache/market-workbench`) on Linux,
 *   `~/Library/Caches/market-workbench` on macOS, `%LOCALAPPDATA%\market-workbench` on Windows.
 *   Not the package's folder: npm replaces `node_modules` on every install (the market would be
 *   generated again each time) and a global install may be read-only. Not the user's project:
 *   a profile's market is the same for every project (it is deterministic: profile, seed and
 *   generator version), so the user's projects share one instead of each generating its own, and
 *   nothing is written among the user's files. A cache, because all of it can be made again.
 * - `MARKET_WORKBENCH_HOME`, or the `home` option, names another folder for all three.
 */
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { SandboxSettingError } from "./errors.ts";

/** The environment variable naming the sandbox's home folder (see `sandboxHome`). */
export const HOME_VARIABLE = "MARKET_WORKBENCH_HOME";

/** Where the sandbox keeps its markets, records and logs. */
export interface SandboxHome {
  /** The folder of the generated markets: a profile's is `<markets>/<profile>`. */
  markets: string;
  /** The folder of the records of running sandboxes and of their log files. */
  runs: string;
}

/** This module runs from the repository's sources (a checkout), not from the built package. */
export const FROM_SOURCES: boolean = import.meta.url.endsWith(".ts");

/** The checkout's root, when running from the sources. */
export const CHECKOUT_ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The per-user cache folder of this platform, for the installed package. */
function userCache(): string {
  const env = process.env;
  if (process.platform === "win32") return join(env.LOCALAPPDATA || join(homedir(), "AppData", "Local"), "market-workbench");
  if (process.platform === "darwin") return join(homedir(), "Library", "Caches", "market-workbench");
  // XDG: a relative XDG_CACHE_HOME is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".cache"), "market-workbench");
}

/**
 * The sandbox's home: `home` when given, else MARKET_WORKBENCH_HOME, else the checkout's
 * `data/` and `.cache/` when running from the sources, else the per-user cache folder. Throws
 * SandboxSettingError for a blank folder name.
 *
 * @example
 * ```ts
 * import { sandboxHome } from "market-workbench/sandbox";
 * sandboxHome().markets;            // e.g. "/home/me/.cache/market-workbench/data"
 * sandboxHome("/srv/teaching").runs; // "/srv/teaching"
 * ```
 */
export function sandboxHome(home?: string): SandboxHome {
  const chosen = home ?? process.env[HOME_VARIABLE];
  if (chosen !== undefined) {
    if (chosen.trim() === "") {
      throw new SandboxSettingError(
        `${
          home === undefined ? HOME_VARIABLE : "sandbox({ home })"
        } is '${chosen}', which names no folder: give a folder, or leave it unset for ${
          FROM_SOURCES ? "the checkout's data/ and .cache/" : userCache()
        }`,
      );
    }
    const root = resolve(chosen);
    return { markets: join(root, "data"), runs: root };
  }
  if (FROM_SOURCES) return { markets: join(CHECKOUT_ROOT, "data"), runs: join(CHECKOUT_ROOT, ".cache") };
  const cache = userCache();
  return { markets: join(cache, "data"), runs: cache };
}
