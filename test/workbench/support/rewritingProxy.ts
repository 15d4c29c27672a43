/**
 * A loopback HTTP proxy in front of a real sandbox that rewrites the JSON answers of chosen
 * paths (or their headers), so a test can show what the workbench does when a service drifts
 * from the contract.
 *
 * @example
 * ```ts
 * const proxy = await startRewritingProxy(sb.baseUrl, { "/api/v1/account/my": (body) => ({ ...body, identity_id: "7" }) });
 * const wb = await connect({ baseUrl: proxy.baseUrl, apiKey: "demo-full-access" });
 * ```
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Rewrite {
  /** Rewrites the parsed JSON body (return the new body). */
  body?: (body: any) => unknown;
  /** Rewrites the response headers in place. */
  headers?: (headers: Headers) => void;
}

export interface RewritingProxy {
  baseUrl: string;
  /** Requests forwarded so far. */
  requests: number;
  stop: () => Promise<void>;
}

/** Starts the proxy; `rules` maps a path prefix to its rewrite (a function rewrites the body). */
export async function startRewritingProxy(target: string, rules: Record<string, Rewrite | ((body: any) => unknown)>): Promise<RewritingProxy> {
  const state = { requests: 0 };
  const server = createServer(async (req, res) => {
    state.requests++;
    const upstream = await fetch(`${target}${req.url}`, { headers: { "X-API-KEY": String(req.headers["x-api-key"] ?? "") } });
    const path = (req.url ?? "").split("?")[0];
    const match = Object.entries(rules).find(([prefix]) => path.startsWith(prefix))?.[1];
    const rule: Rewrite = typeof match === "function" ? { body: match } : match ?? {};
    let body = new Uint8Array(await upstream.arrayBuffer());
    const headers = new Headers(upstream.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    if (rule.body) body = new TextEncoder().encode(JSON.stringify(rule.body(JSON.parse(new TextDecoder().decode(body)))));
    rule.headers?.(headers);
    res.writeHead(upstream.status, Object.fromEntries(headers));
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
