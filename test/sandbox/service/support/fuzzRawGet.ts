/**
 * A GET that sends its path byte for byte. `fetch` normalises a URL before sending it
 * (`/a/../b` becomes `/b`, `%2e%2e` becomes `..`), which hides exactly the paths a traversal
 * or fuzz test needs the server to see; `node:http` sends the request target as given.
 *
 * @example
 * ```ts
 * const r = await rawGet(sb.baseUrl, "/api/v1/data/us-equity/eq-daily-ohlc/../eq-taq", "demo-restricted");
 * r.status; r.json();
 * ```
 */
import { Agent, request } from "node:http";
import { ContractCheck } from "./contractCheck.ts";
import { Buffer } from "node:buffer";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body parsed as JSON; throws when it is not JSON. */
  json: () => unknown;
}

// Keep-alive: the fuzzer sends hundreds of requests and should not exhaust ephemeral ports.
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export function rawGet(baseUrl: string, path: string, key?: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(baseUrl, "GET", path, key, headers);
}

/** Like rawGet with any method, even those `fetch` refuses to send (TRACE, CONNECT). */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  key?: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path, method, agent, headers: { ...(key === undefined ? {} : { "X-API-KEY": key }), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          ContractCheck.of(baseUrl)?.record(
            method,
            path,
            res.statusCode ?? 0,
            String(res.headers["content-type"] ?? ""),
            method === "HEAD" ? undefined : body,
          );
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}
