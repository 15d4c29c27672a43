/**
 * Failures no retry can fix, told apart from transient ones: nothing listening at the address
 * (connection refused), a host name that does not resolve, a URL fetch refuses outright, and
 * an HTTP answer that is not the Datasets Service (no JSON detail on an error, the wrong
 * content type on a success). These raise at once with the URL and the likely cause; resets,
 * timeouts, 503s and per-minute 429s keep the spec's retries.
 */
import { mediaTypeOf } from "../../contract/formats.ts";

/** Every message and code along an error's `cause` chain, lower-cased. */
function causeText(error: unknown): string {
  const parts: string[] = [];
  for (
    let e = error as { message?: unknown; code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code !== undefined) parts.push(String(e.code));
    if (e.message !== undefined) parts.push(String(e.message));
  }
  return parts.join(" | ").toLowerCase();
}

/**
 * Why a network error cannot be cured by retrying, or undefined when it may be transient.
 *
 * @example
 * ```ts
 * permanentNetworkCause(error, "http://127.0.0.1:9999"); // "connection refused: nothing listens at 127.0.0.1:9999 ..."
 * ```
 */
export function permanentNetworkCause(error: unknown, baseUrl: string): string | undefined {
  const text = causeText(error);
  let host = baseUrl;
  try {
    host = new URL(baseUrl).host;
  } catch {
    // keep the text as given
  }
  if (/econnrefused|connection refused/.test(text)) {
    return `connection refused: nothing listens at ${host}. Is the port right, and is the service (or the sandbox) running?`;
  }
  if (/enotfound|eai_again|dns error|failed to lookup address|name or service not known|getaddrinfo/.test(text)) {
    return `the host name of ${host} does not resolve (DNS). Check its spelling in the base URL, and the network`;
  }
  if (/bad port|invalid url|unsupported protocol|url scheme/.test(text)) {
    return `the URL cannot be fetched (${text.split(" | ").at(-1)}). Check the base URL's scheme and port`;
  }
  return undefined;
}

/**
 * The content type a successful answer must have: JSON for account and meta, else the type of
 * the page format asked for (the service's default when the request names none).
 */
export function expectedContentType(path: string, params?: URLSearchParams): string {
  return mediaTypeOf(path.startsWith("/api/v1/data/") ? params?.get("response_format") : "json");
}

/** The first characters of a body, for a message. */
export function bodyStart(body: Uint8Array | string): string {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body.subarray(0, 120));
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
