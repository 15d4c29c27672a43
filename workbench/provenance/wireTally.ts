/**
 * What a recorded call or download saw on the wire: the answers' request ids, how many pages
 * and how many body bytes (as received: compressed when gzip). It hears them from the call's
 * `answer` events: no copy, no parse.
 */

/**
 * The answers of one call, counted.
 *
 * @example
 * ```ts
 * const tally = new WireTally();
 * tally.answer("rid-1", 52_000); // tally.pages 1, tally.bytes 52000, tally.requestIds ["rid-1"]
 * ```
 */
export class WireTally {
  /** The request ids of the answers, in order. */
  readonly requestIds: string[] = [];
  /** The pages received. */
  pages = 0;
  /** Their bytes, as received. */
  bytes = 0;

  /** One answered request: its request id (when the service sent one) and body bytes. */
  answer(requestId: string | null, bytes: number): void {
    this.pages++;
    this.bytes += bytes;
    if (requestId) this.requestIds.push(requestId);
  }
}
