/**
 * The wire format a data call asks for when the user names none: plain CSV where bytes are
 * cheap (loopback, a fast network), `csv_gzip` where they cost more than the CPU that
 * compresses and decompresses them (a researcher's line). CSV asks the least of both ends' CPU;
 * gzip sends about a quarter of the bytes. The choice starts from where the service is (this
 * machine or a private network: CSV; a public address: gzip) and follows what the pages
 * measure: the line's rate seen by the pages of every call to this service, remembered for the
 * session (one `WireChoice` a transport). A call's `format` option overrides it.
 *
 * The rate is bytes received over the time at least one answer's body was arriving, less the
 * time this thread spent parsing pages (a body waiting behind a parse was not slowed by the
 * line), and only up to the start of the oldest body still arriving: a body in flight shares
 * the line without its bytes being counted yet, and counting the time without them would
 * understate the line. Pages in CSV measure the line itself. Pages in gzip measure at most the line (they may
 * be slowed by the service's compressor), so gzip turns back to CSV only when even they arrive
 * faster than the threshold, and a choice never flips back and forth on one line.
 */

/** The formats the workbench chooses between by itself. */
export type ChosenFormat = "csv" | "csv_gzip";

/** What a call asks for, and why (said in the call's progress). */
export interface WireDecision {
  format: ChosenFormat;
  reason: string;
}

/**
 * The line's rate (megabytes a second) below which `csv_gzip` costs less time than CSV: where
 * each megabyte of CSV on the line takes longer than compressing, decompressing and parsing it.
 */
export const GZIP_BELOW_MBPS = 40;
/** Bytes measured before the rate is trusted: small pages are mostly latency. */
const EVIDENCE_BYTES = 2_000_000;
/** Answers kept for the measure: the latest ones, in the format asked now. */
const KEPT = 32;

type Interval = [from: number, to: number];

/** Where the service is: on this machine or a private network (bytes cheap), or across the internet. */
function nearby(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return true;
  }
  if (host === "localhost" || /\.(localhost|invalid|test|local|internal)$/.test(host)) return true;
  if (/^(127\.|10\.|192\.168\.|169\.254\.)/.test(host) || /^172\.(1[6-9]|2\d|3[01])\./.test(host)) return true;
  return host === "::1" || /^(fc|fd|fe80:)/.test(host);
}

/** Total length of the union of `intervals`, less its overlap with the union of `minus`. */
function coveredMs(intervals: Interval[], minus: Interval[]): number {
  const union = (xs: Interval[]): Interval[] => {
    const out: Interval[] = [];
    for (const [a, b] of [...xs].sort((x, y) => x[0] - y[0])) {
      const last = out[out.length - 1];
      if (last && a <= last[1]) last[1] = Math.max(last[1], b);
      else out.push([a, b]);
    }
    return out;
  };
  const on = union(intervals);
  const off = union(minus);
  let total = 0;
  for (const [a, b] of on) {
    let length = b - a;
    for (const [c, d] of off) length -= Math.max(0, Math.min(b, d) - Math.max(a, c));
    total += Math.max(0, length);
  }
  return total;
}

/**
 * The session's wire format for one service, learnt from its pages.
 *
 * @example
 * ```ts
 * const choice = new WireChoice("http://127.0.0.1:8000");
 * choice.decision.format; // "csv": the service is on this machine
 * choice.transferred(0, 800, 10_000_000, "csv"); // 10 MB in 0.8 s: 12.5 MB/s
 * choice.decision.format; // "csv_gzip"
 * ```
 */
export class WireChoice {
  #decision: WireDecision;
  #transfers: { at: Interval; bytes: number }[] = [];
  #busy: Interval[] = [];
  /** When each body still arriving began (its answer's headers). */
  #arriving: number[] = [];

  /** @param baseUrl the service's base URL: where it is sets the first choice */
  constructor(baseUrl: string) {
    this.#decision = nearby(baseUrl)
      ? { format: "csv", reason: "the service is on this machine or a private network: plain CSV until its pages measure a slow line" }
      : { format: "csv_gzip", reason: "the service is across the internet: csv_gzip until its pages measure a line faster than compressing" };
  }

  /** The format to ask for now, and why. */
  get decision(): WireDecision {
    return this.#decision;
  }

  /** An answer's body began to arrive at `fromMs` (`performance.now()`); `ended` is called once it has, or failed. */
  arriving(fromMs: number): { ended: () => void } {
    this.#arriving.push(fromMs);
    let open = true;
    return {
      ended: () => {
        if (!open) return;
        open = false;
        this.#arriving.splice(this.#arriving.indexOf(fromMs), 1);
      },
    };
  }

  /** An answer's body of `bytes` (as sent) arrived from `fromMs` to `toMs` (`performance.now()`), asked in `format`. */
  transferred(fromMs: number, toMs: number, bytes: number, format: string): void {
    if (format !== this.#decision.format || !(toMs >= fromMs)) return;
    this.#transfers.push({ at: [fromMs, toMs], bytes });
    if (this.#transfers.length > KEPT) this.#transfers.shift();
    this.#judge();
  }

  /** This thread was busy (parsing a page) from `fromMs` to `toMs`: not the line's time. */
  busy(fromMs: number, toMs: number): void {
    this.#busy.push([fromMs, toMs]);
    const oldest = this.#transfers[0]?.at[0] ?? toMs;
    this.#busy = this.#busy.filter(([, end]) => end >= oldest);
  }

  /**
   * The rate measured in megabytes a second, once there is evidence enough: up to the start of
   * the oldest body still arriving, each body's bytes taken as spread evenly over its time.
   */
  get measuredMBps(): number | undefined {
    const cutoff = Math.min(...this.#arriving);
    const clipped = this.#transfers.flatMap(({ at: [a, b], bytes }): { at: Interval; bytes: number }[] => {
      if (a >= cutoff) return [];
      if (b <= cutoff) return [{ at: [a, b], bytes }];
      return [{ at: [a, cutoff], bytes: (bytes * (cutoff - a)) / (b - a) }];
    });
    const bytes = clipped.reduce((sum, t) => sum + t.bytes, 0);
    if (bytes < EVIDENCE_BYTES) return undefined;
    const ms = coveredMs(clipped.map((t) => t.at), this.#busy);
    return ms <= 0 ? Number.POSITIVE_INFINITY : bytes / ms / 1000;
  }

  #judge(): void {
    const rate = this.measuredMBps;
    if (rate === undefined) return;
    const shown = `${rate === Number.POSITIVE_INFINITY ? "unmeasurably fast" : `${rate.toFixed(1)} MB/s`}`;
    if (this.#decision.format === "csv" && rate < GZIP_BELOW_MBPS) {
      this.#switch({ format: "csv_gzip", reason: `the line measured ${shown} of CSV, below ${GZIP_BELOW_MBPS} MB/s: fewer bytes cost less than the CPU to compress them` });
    } else if (this.#decision.format === "csv_gzip" && rate >= GZIP_BELOW_MBPS) {
      this.#switch({ format: "csv", reason: `the line measured ${shown} even of compressed bytes, above ${GZIP_BELOW_MBPS} MB/s: plain CSV costs less CPU` });
    } else {
      this.#decision = { ...this.#decision, reason: `${this.#decision.format === "csv" ? "plain CSV" : "csv_gzip"}: the line measured ${shown} (csv_gzip below ${GZIP_BELOW_MBPS} MB/s)` };
    }
  }

  #switch(decision: WireDecision): void {
    this.#decision = decision;
    this.#transfers = [];
    this.#busy = [];
  }
}

const choices = new WeakMap<object, WireChoice>();

/**
 * The session's choice for a client (its transport), made on first use from its base URL.
 *
 * @example
 * ```ts
 * wireChoiceOf(wb.transport).decision; // { format: "csv", reason: "the service is on this machine ..." }
 * ```
 */
export function wireChoiceOf(client: { readonly options: { readonly baseUrl: string } }): WireChoice {
  let choice = choices.get(client);
  if (!choice) choices.set(client, (choice = new WireChoice(client.options.baseUrl)));
  return choice;
}

/** What a pager asks of the wire format: the format of its next page, and hears its parse time. */
export interface PageWire {
  /** The format to ask the next page in. */
  format(): ChosenFormat;
  /** A page was parsed on this thread from `fromMs` to `toMs` (`performance.now()`). */
  busy(fromMs: number, toMs: number): void;
}

/** An answer as the wire measures it: its body, and the bytes the wire carried when they differ. */
interface Measured {
  body: Uint8Array;
  wireBytes?: number;
}

/**
 * One call's view of the session's choice: pages ask `format()` when they are sent, and the
 * call says (`say`) the format it asks for, when first asked and whenever it changes; `metered`
 * wraps the call's send so that each answer's transfer is measured.
 *
 * @example
 * ```ts
 * const wire = callWire(wireChoiceOf(transport), (d) => console.log(d.format, d.reason));
 * const send = wire.metered((path, params, onHeaders) => transport.get(path, params, onHeaders));
 * ```
 */
export function callWire(choice: WireChoice, say: (decision: WireDecision) => void): PageWire & {
  metered<P extends URLSearchParams, R extends Measured>(send: (path: string, params: P, onHeaders?: (headers: Headers) => void) => Promise<R>): (path: string, params: P, onHeaders?: (headers: Headers) => void) => Promise<R>;
} {
  let said: ChosenFormat | undefined;
  return {
    format() {
      const decision = choice.decision;
      if (decision.format !== said) {
        said = decision.format;
        say(decision);
      }
      return decision.format;
    },
    busy: (fromMs, toMs) => choice.busy(fromMs, toMs),
    metered: (send) => async (path, params, onHeaders) => {
      let headersAt: number | undefined;
      let body: { ended: () => void } | undefined;
      try {
        const r = await send(path, params, (headers) => {
          body?.ended(); // a body retried after a dropped connection: its first try ended
          headersAt = performance.now();
          body = choice.arriving(headersAt);
          onHeaders?.(headers);
        });
        body?.ended();
        const format = params.get("response_format");
        if (headersAt !== undefined && format) choice.transferred(headersAt, performance.now(), r.wireBytes ?? r.body.byteLength, format);
        return r;
      } finally {
        body?.ended();
      }
    },
  };
}
