/**
 * `wb.cache` of a workbench connected without a cache folder. It is always there, so a user
 * who types `await wb.cache.verify()` learns that there is no cache and how to get one (a typed
 * error, before any request) instead of a TypeError about `undefined`.
 */
import { QueryError } from "../errors/base.ts";

const HOW = 'connect({ cache: "<dir>" }) keeps each fetched frame on disk with its provenance (e.g. connect({ cache: ".cache/frames" }))';

/**
 * `wb.cache` without a cache folder: `enabled` is false, and `verify()` refuses with a
 * QueryError saying how to connect with a cache.
 *
 * @example
 * ```ts
 * const wb = await connect();
 * wb.cache.enabled; // false unless connect({ cache: "<dir>" })
 * ```
 */
export class NoCache {
  /** False: frames are not cached (`FrameCache.enabled` is true). */
  readonly enabled = false as const;
  /** No folder. */
  readonly dir: undefined = undefined;
  /** Calls answered from the cache: always 0. */
  readonly hits = 0;
  /** Calls that missed the cache: always 0. */
  readonly misses = 0;

  /**
   * Refuses: there are no cached frames to verify.
   *
   * @throws {QueryError} naming the missing cache and how to connect with one
   * @example
   * ```ts
   * const wb = await connect();
   * if (wb.cache.enabled) console.log(await wb.cache.verify());
   * else console.log("no cache: connect({ cache: \".cache/frames\" }) to keep frames on disk");
   * ```
   */
  verify(_options: { remove?: boolean } = {}): Promise<never> {
    return Promise.reject(
      new QueryError(
        `This workbench has no cache, so there is nothing to verify: ${HOW}, and wb.cache.verify() then checks those frames against the service`,
      ),
    );
  }
}
