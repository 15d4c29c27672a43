/**
 * The one HTTP layer: base URL, the X-API-KEY header, timeouts, retries by the spec's client
 * rules and the mapping of failures to the workbench's errors. Built on ky.
 *
 Retries: every one is the policy's (retryPolicy.ts), taken in one loop in `get`: 422 and
 * other 4xx are never retried; 503, network failures and dropped bodies are retried with
 * exponential backoff and full jitter (bounded); a per-minute 429 waits for the reset its
 * Retry-After names and goes on; a monthly 429 (a reset days away) stops at once; a 504 is
 * retried for a one-row page only (the pager halves a larger page instead). What no retry can
 * fix raises at once (see failFast.ts): connection refused, a host that does not resolve, and
 * an answer that is not the service (an error without a JSON detail, a success of the wrong
 * content type).
 *
 * Secrets: the key (and a user name and password in the base URL) live in private fields
 * (secrets.ts); `options` holds the settings without them, every URL shown is the one without
 * credentials, and a service's answer that echoes either is masked before it reaches an error.
 */
import ky, { HTTPError, type KyInstance } from "ky";
import type { z } from "zod";
import { WorkbenchError } from "../errors/base.ts";
import { errorFromResponse } from "../errors/fromResponse.ts";
import { NetworkError, NotTheServiceError, ServiceUnreachableError } from "../errors/http.ts";
import { checkAnswer } from "./contractCheck.ts";
import { bodyStart, expectedContentType, permanentNetworkCause } from "./failFast.ts";
import { QuotaWarnings } from "./quotaWarning.ts";
import { readAnswerBody } from "./answerBody.ts";
import { untilAborted } from "../runtime/interrupts.ts";
import type { Waits } from "../runtime/timers.ts";
import { RetryPolicy } from "./retryPolicy.ts";
import { TransportSecrets } from "./secrets.ts";

/** How to reach the service: its address and key, retries and timeouts. */
export interface TransportOptions {
  /** The service's base URL, e.g. `https://data.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** The API key, sent in the X-API-KEY header (never in a URL, an error or a manifest). */
  apiKey: string;
  /** Retries of a 503, a network failure or a per-minute 429, and of a one-row page's 504 (default 8). */
  retries?: number;
  /** Per-request timeout in milliseconds (default 120 s). */
  timeoutMs?: number;
  /** Longest Retry-After (seconds) still waited out; longer means a monthly quota (default 120). */
  maxWaitSeconds?: number;
  /**
   * The `fetch` that sends each request (default: the global one). Tests hand in a service's
   * app in-process (`app.request`), so nothing listens on a port.
   */
  fetch?: (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
  /**
   * How retries wait: `sleep` and `backoffDelay` (default: the real ones, `realWaits`). Every
   * wait between retries goes through it, a Retry-After's included. Tests that check only the
   * outcome of a fetch under faults hand in a `sleep` that returns at once.
   */
  waits?: Waits;
}

/** A transport's settings as it shows them: its options without the key, the base URL without credentials. */
export type TransportSettings = Readonly<Omit<TransportOptions, "apiKey">>;

/** A successful answer as it arrived: status, headers and the body's bytes. */
export interface RawResponse {
  /** The HTTP status (2xx). */
  status: number;
  /** The answer's headers. */
  headers: Headers;
  /** The body: as received, or for a gzip answer (`csv_gzip`) decompressed as it streamed in (`decoded`). */
  body: Uint8Array;
  /** Bytes the wire carried (a gzip answer's compressed bytes); `body.byteLength` when absent. */
  wireBytes?: number;
  /** True when `body` is a gzip answer's decompressed content (answerBody.ts). */
  decoded?: boolean;
  /** The URL asked. */
  url: string;
}

/**
 * The one HTTP client of a workbench (`wb.transport`): sends the key, retries what can be
 * retried (503, dropped connections, a per-minute 429) with backoff, and turns every failure
 * into a typed `WorkbenchError`.
 *
 * @example
 * ```ts
 * const answer = await wb.transport.get("/api/v1/account/my");
 * JSON.parse(new TextDecoder().decode(answer.body)).name;
 * ```
 */
export class Transport {
  /** HTTP requests sent so far, retries included: lets tests prove a check sent nothing. */
  requestsSent = 0;
  /** The service's near-quota warnings (`X-Quota-Warning`), printed once per quota. */
  readonly quotaWarnings = new QuotaWarnings();
  /** The settings: the base URL without user name or password, retries, timeouts; never the key. */
  readonly options: TransportSettings;
  /** The options as given, key included: only `twin()` reads them. */
  readonly #given: TransportOptions;
  /** The key and the base URL's user name and password. */
  readonly #secrets: TransportSecrets;
  readonly #http: KyInstance;
  /** Which failures are tried again, how often and after how long: every retry of every request. */
  readonly #retry: RetryPolicy;

  /**
   * A client for one service and key; sends nothing until the first `get`.
   *
   * @param options the service's address and key, retries and timeouts
   */
  constructor(options: TransportOptions) {
    const { apiKey, ...settings } = options;
    this.#given = { ...options };
    this.#secrets = new TransportSecrets(options.baseUrl, apiKey);
    this.options = Object.freeze({ ...settings, baseUrl: this.#secrets.baseUrl });
    this.#retry = new RetryPolicy(options);
    this.#http = ky.create({
      prefixUrl: this.options.baseUrl.replace(/\/+$/, ""),
      headers: this.#secrets.headers(),
      timeout: options.timeoutMs ?? 120_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      // Every retry is the policy's (retryPolicy.ts), in get(): ky sends each attempt once.
      retry: 0,
      hooks: {
        beforeRequest: [() => void this.requestsSent++],
        // Not afterResponse: ky hands that hook a clone of every answer, and teeing the body of a
        // data page cost a tenth of the client's time per page. Answers are observed in get(),
        // failed ones there too and in toWorkbenchError.
      },
    });
  }

  /** The longest wait (seconds) a 429's Retry-After or the per-minute window may name and still be waited out (the retry policy's). */
  get maxWaitSeconds(): number {
    return this.#retry.maxWaitSeconds;
  }

  /**
   * A new transport to the same service with the same key and settings, counting its own
   * requests (the workbench's free reads go through one).
   *
   * @example
   * ```ts
   * const free = wb.transport.twin();
   * await free.get("/api/v1/account/my"); // wb.transport.requestsSent unchanged
   * ```
   */
  twin(): Transport {
    return new Transport(this.#given);
  }

  /**
   * `text` with the key and the base URL's password masked (`***`) and URL credentials removed:
   * for text that came from elsewhere (an answer's body, another library's error).
   *
   * @example
   * ```ts
   * wb.transport.redact("key demo-full-access refused"); // "key *** refused"
   * ```
   */
  redact(text: string): string {
    return this.#secrets.redact(text);
  }

  /**
   * A digest of the service and key under `secret` (HMAC-SHA256, 32 hex digits): tells apart
   * what different keys cached, and tells nothing about the key without the secret.
   *
   * @example
   * ```ts
   * const scope = wb.transport.keyedScope(crypto.getRandomValues(new Uint8Array(32)));
   * ```
   */
  keyedScope(secret: Uint8Array): string {
    return this.#secrets.keyedScope(secret);
  }

  /** Shown as its service and count, never its key (`Deno.inspect`, `console.log`). */
  [Symbol.for("Deno.customInspect")](): string {
    return this.#shown();
  }

  /** Node's `util.inspect`, as `Deno.customInspect`. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.#shown();
  }

  #shown(): string {
    return `Transport { baseUrl: ${JSON.stringify(this.options.baseUrl)}, requestsSent: ${this.requestsSent} }`;
  }

  /**
   * GETs a path and returns the raw answer; throws the workbench error for any failure.
   * `onHeaders` sees a successful answer's headers as soon as they arrive, before its body is
   * read (the pager learns the next page's offset there); a body retried after a dropped
   * connection shows them again. When `signal` fires the request is aborted, its retries and
   * waits too, and `get` rejects at once with the signal's reason.
   */
  async get(path: string, params?: URLSearchParams, onHeaders?: (headers: Headers) => void, signal?: AbortSignal): Promise<RawResponse> {
    const url = `${this.options.baseUrl.replace(/\/+$/, "")}${path}${params && [...params].length ? `?${params}` : ""}`;
    // One loop for every retry the policy allows: a failed answer, and a body that failed after
    // its headers arrived (a dropped connection).
    for (let attempt = 0;; attempt++) {
      let response: Response;
      try {
        // Raced as well: a `fetch` handed in (a service in-process) may not honour the signal.
        response = await untilAborted(
          this.#http.get(path.replace(/^\//, ""), { ...(params ? { searchParams: params } : {}), ...(signal ? { signal } : {}) }),
          signal,
        );
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const wait = this.#retry.afterFailure(error, attempt, this.options.baseUrl, params);
        if (wait === undefined) throw await this.toWorkbenchError(error, url);
        if (error instanceof HTTPError) {
          this.quotaWarnings.observe(error.response.headers);
          void error.response.body?.cancel().catch(() => {});
        }
        await this.#pause(wait, signal);
        continue;
      }
      this.quotaWarnings.observe(response.headers);
      this.checkContentType(response, path, params, url);
      onHeaders?.(response.headers);
      try {
        const { body, wireBytes, decoded } = await untilAborted(readAnswerBody(response), signal);
        return { status: response.status, headers: response.headers, body, wireBytes, decoded, url };
      } catch (error) {
        if (signal?.aborted) {
          void response.body?.cancel().catch(() => {});
          throw signal.reason;
        }
        const wait = this.#retry.afterDroppedBody(attempt);
        if (wait === undefined) {
          throw new NetworkError(
            `Connection dropped while reading the answer: GET ${new URL(url).pathname} (${this.#secrets.redact((error as Error).message)})`,
            { url },
          );
        }
        await this.#pause(wait, signal);
      }
    }
  }

  /** The policy's wait between attempts; an interrupted call stops waiting at once, with the signal's reason. */
  async #pause(ms: number, signal?: AbortSignal): Promise<void> {
    try {
      await this.#retry.pause(ms, signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  }

  /**
   * GETs a JSON document and checks it against its contract schema (contract/): a drifted
   * answer raises a ContractError naming the endpoint and the field.
   */
  async getJson<T extends z.ZodType>(path: string, schema: T, params?: URLSearchParams): Promise<z.infer<T>> {
    const r = await this.get(path, params);
    const endpoint = `GET ${new URL(r.url).pathname}`;
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(r.body));
    } catch {
      return checkAnswer(
        schema,
        r.body.byteLength === 0 ? undefined : this.#secrets.redact(new TextDecoder().decode(r.body.subarray(0, 80))),
        endpoint,
        r.url,
      );
    }
    return checkAnswer(schema, value, endpoint, r.url);
  }

  /** A success whose content type is not the one asked for is not the service's answer. */
  private checkContentType(response: Response, path: string, params: URLSearchParams | undefined, url: string): void {
    const expected = expectedContentType(path, params);
    const got = (response.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
    if (got === expected) return;
    void response.body?.cancel().catch(() => {});
    throw new NotTheServiceError(
      `The answer to GET ${url} is not from a Datasets Service: HTTP ${response.status} with content type '${
        got || "none"
      }' where ${expected} was expected. ` +
        "Check the base URL (host, port and path prefix).",
      { status: response.status, url },
    );
  }

  /** The workbench error of a failed request (the body read for the service's detail). */
  private async toWorkbenchError(error: unknown, url: string): Promise<WorkbenchError> {
    if (error instanceof HTTPError) {
      this.quotaWarnings.observe(error.response.headers);
      const text = this.#secrets.redact(await error.response.text().catch(() => ""));
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: told apart below
      }
      const status = error.response.status;
      const detail = (body as { detail?: unknown } | null)?.detail;
      // 503, 504 and 429 may come from a proxy in front of the service: transient, handled as such.
      if (typeof detail !== "string" && !Array.isArray(detail) && ![429, 503, 504].includes(status)) {
        const type = error.response.headers.get("Content-Type") ?? "none";
        return new NotTheServiceError(
          `The answer to GET ${url} is not from a Datasets Service: HTTP ${status} (${type}) without a JSON detail, starting '${
            bodyStart(text)
          }'. ` +
            "Check the base URL (host, port and path prefix).",
          { status, url, detail: text },
        );
      }
      return errorFromResponse(status, body, error.response.headers, "GET", url);
    }
    if (error instanceof WorkbenchError) return error;
    const reason = this.#secrets.redact((error as Error)?.message ?? String(error));
    const permanent = permanentNetworkCause(error, this.options.baseUrl);
    if (permanent) return new ServiceUnreachableError(`Cannot reach the service at ${url}: ${this.#secrets.redact(permanent)}`, { url });
    return new NetworkError(`No answer from the service (${reason}): GET ${new URL(url).pathname}`, { url });
  }
}
