/**
 * What a transport sends to prove who it is, kept private: the API key and a user name and
 * password given in the base URL (sent as HTTP Basic authorization, as curl and Python's
 * requests do). Only the headers, the masking of text and a keyed digest come out; the object
 * itself shows nothing (`#` fields are invisible to `Deno.inspect`, `util.inspect` and
 * `JSON.stringify`).
 */
import { createHmac } from "node:crypto";
import { credentialsOf, redactor, withoutCredentials } from "../errors/credentials.ts";

/**
 * The secrets of one transport.
 *
 * @example
 * ```ts
 * const secrets = new TransportSecrets("https://me:pw@data.example.com", "my-key");
 * secrets.baseUrl; // "https://data.example.com"
 * secrets.redact("my-key refused"); // "*** refused"
 * ```
 */
export class TransportSecrets {
  /** The base URL without user name or password: the one every message shows. */
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #headers: Record<string, string>;
  readonly #redact: (text: string) => string;

  /**
   * The secrets of one base URL and API key.
   *
   * @param baseUrl the base URL as given (a user name and password in it are kept here)
   * @param apiKey the API key
   */
  constructor(baseUrl: string, apiKey: string) {
    this.baseUrl = withoutCredentials(baseUrl);
    this.#apiKey = apiKey;
    this.#headers = { "X-API-KEY": apiKey };
    const credentials = credentialsOf(baseUrl);
    if (credentials) {
      const pair = new TextEncoder().encode(`${credentials.user}:${credentials.password}`);
      this.#headers.Authorization = `Basic ${btoa(String.fromCharCode(...pair))}`;
    }
    // The password as typed (percent-encoded) and as sent.
    const typedPassword = /^[a-z][a-z0-9+.-]*:\/\/[^/@:]*:([^/@]*)@/i.exec(baseUrl)?.[1];
    this.#redact = redactor([apiKey, credentials?.password, typedPassword]);
  }

  /** The headers that carry them. */
  headers(): Record<string, string> {
    return { ...this.#headers };
  }

  /** `text` with the key and the password masked (`***`) and URL credentials removed. */
  redact(text: string): string {
    return this.#redact(text);
  }

  /** HMAC-SHA256 of the service and key under `secret`, 32 hex digits. */
  keyedScope(secret: Uint8Array): string {
    return createHmac("sha256", secret).update(`market-workbench cache scope\n${this.baseUrl}\n${this.#apiKey}`).digest("hex").slice(0, 32);
  }
}
