/**
 * What a recorded call or download saw on the wire: the answers' request ids, how many pages
 * and how many body bytes (as received: compressed when gzip). It sees them through a thin
 * wrapper of the transport (like the rate gate's): no copy, no parse.
 */
import type { Transport } from "../http/transport.ts";

export class WireTally {
  readonly requestIds: string[] = [];
  pages = 0;
  bytes = 0;

  /**
   * The transport, counted by this tally.
   *
   * @example
   * ```ts
   * const tally = new WireTally();
   * const counted = tally.wrap(transport); // tally.pages, tally.bytes, tally.requestIds grow with each answer
   * ```
   */
  wrap(transport: Transport): Transport {
    const tapped = Object.create(transport) as Transport;
    tapped.get = async (path, params, onHeaders) => {
      const r = await transport.get(path, params, onHeaders);
      this.pages++;
      this.bytes += r.body.byteLength;
      const id = r.headers.get("X-Request-ID");
      if (id) this.requestIds.push(id);
      return r;
    };
    return tapped;
  }
}
