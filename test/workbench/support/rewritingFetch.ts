/**
 * A `fetch` in front of a service (an in-process sandbox's, or the global one) that rewrites
 * the JSON answers of chosen paths (or their headers), so a test can show what the workbench
 * does when a service drifts from the contract. rewritingProxy.ts puts the same rewrite
 * behind a loopback port for tests that need real sockets.
 *
 * @example
 * ```ts
 * const drifting = rewritingFetch(sb.fetch, { "/api/v1/account/my": (body) => ({ ...body, identity_id: "7" }) });
 * const wb = await connect({ baseUrl: sb.baseUrl, fetch: drifting, apiKey: "demo-full-access" });
 * ```
 */

/** A parsed JSON body: untyped on purpose, for a rewrite to change freely. */
// deno-lint-ignore no-explicit-any
export type JsonBody = any;

/** What to change in the answers of one path prefix. */
interface Rewrite {
  /** Rewrites the parsed JSON body (return the new body). */
  body?: (body: JsonBody) => unknown;
  /** Rewrites the response headers in place. */
  headers?: (headers: Headers) => void;
}

/** Path prefix → its rewrite (a function rewrites the body). */
export type Rewrites = Record<string, Rewrite | ((body: JsonBody) => unknown)>;

/** A fetch function, as `connect({ fetch })` takes it. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** `upstream` with the answers of the paths `rules` name rewritten; other answers pass unchanged. */
export function rewritingFetch(upstream: Fetch, rules: Rewrites): Fetch {
  return async (input, init) => {
    const answer = await upstream(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const match = Object.entries(rules).find(([prefix]) => url.pathname.startsWith(prefix))?.[1];
    if (match === undefined) return answer;
    const rule: Rewrite = typeof match === "function" ? { body: match } : match;
    let body: BodyInit = new Uint8Array(await answer.arrayBuffer());
    const headers = new Headers(answer.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    if (rule.body) body = JSON.stringify(rule.body(JSON.parse(new TextDecoder().decode(body as Uint8Array))));
    rule.headers?.(headers);
    return new Response(body, { status: answer.status, statusText: answer.statusText, headers });
  };
}
