/**
 * A loopback HTTP proxy in front of a real sandbox that rewrites the JSON answers of chosen
 * paths (or their headers) with rewritingFetch.ts, for tests that need a real socket between
 * the workbench and a drifting service.
 *
 * @example
 * ```ts
 * const proxy = await startRewritingProxy(sb.baseUrl, { "/api/v1/account/my": (body) => ({ ...body, identity_id: "7" }) });
 * const wb = await connect({ baseUrl: proxy.baseUrl, apiKey: "demo-full-access" });
 * ```
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Rewrites, rewritingFetch } from "./rewritingFetch.ts";

export interface RewritingProxy {
  baseUrl: string;
  /** Requests forwarded so far. */
  requests: number;
  stop: () => Promise<void>;
}

/** Starts the proxy; `rules` maps a path prefix to its rewrite (a function rewrites the body). */
export async function startRewritingProxy(target: string, rules: Rewrites): Promise<RewritingProxy> {
  const state = { requests: 0 };
  const forward = rewritingFetch(fetch, rules);
  const server = createServer(async (req, res) => {
    state.requests++;
    const answer = await forward(`${target}${req.url}`, { headers: { "X-API-KEY": String(req.headers["x-api-key"] ?? "") } });
    const body = new Uint8Array(await answer.arrayBuffer());
    const headers = new Headers(answer.headers);
    // fetch has decoded the body already: the proxy sends it as it is.
    headers.delete("content-length");
    headers.delete("content-encoding");
    res.writeHead(answer.status, Object.fromEntries(headers));
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
