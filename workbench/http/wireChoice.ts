/**
 * The wire format a data call asks for when the user names none: plain CSV where bytes are
 * cheap (loopback, a fast network), `csv_gzip` where they cost more than the CPU that
 * compresses and decompresses them (a researcher's line). CSV asks the least of both ends' CPU;
 * gzip sends about a quarter of the bytes. The choice starts from where the service is (this
 * machine or a private network: CSV; a public address: gzip) and follows what the pages
 * measure: the line's rate seen by the pages of every call to this service, remembered for the
 * session (one `WireChoice` a transport). A call's `format` option overrides it.
 *
 * Two measures, each over the time its answers were under way, less the time this thread spent
 * parsing pages (an answer waiting behind a parse was not slowed by the line), and only up to
 * the oldest answer still under way (it shares the line before its bytes are counted): the
 * line's rate, bytes on the wire from each answer's headers to its last byte; and the rate of
 * CSV a format delivers, from asking to the last byte (the service's writing and compressing
 * included). A line's rate below the threshold (or, in gzip, above it) puts the other format on
 * trial: it is measured, then the format the session had is measured again (both warm, close
 * in time), and the one that delivered more CSV a second is kept for the session: where both
 * ends share starved cores everything looks slow and compressing only adds to it, which the
 * trial tells apart from a slow line.
 */

/** The formats the workbench chooses between by itself. */
export type ChosenFormat = "csv" | "csv_gzip";

/** What a call asks for, and why (said in the call's progress). */
export interface WireDecision {
  /** The format the call asks its pages in. */
  format: ChosenFormat;
  /** Why, in words (said in the call's progress). */
  reason: string;
}

/**
 * The line's rate (megabytes a second) below which `csv_gzip` costs less time than CSV: where
 * each megabyte of CSV on the line takes longer than compressing, decompressing and parsing it.
 */
export const GZIP_BELOW_MBPS = 40;
/**
 * The same threshold for a service on this machine or a private network: there a line slower
 * than this is rare (an imitated one, or cores too busy to read), and a trial's compressed pages
 * cost both sides CPU that a measured 20-40 MB/s on loopback (a cold first call) does not repay.
 */
export const NEARBY_GZIP_BELOW_MBPS = 20;
/** Bytes measured before the rate is trusted: small pages are mostly latency. */
const EVIDENCE_BYTES = 2_000_000;
/** Answers kept for the measure: the latest ones, in the format asked now. */
const KEPT = 32;
/**
 * Answers a trial waits for: as many as a call of several units keeps in flight, so that the
 * format on trial is measured with its requests overlapping as the other's were (a few pages
 * alone, at the end of a call, would understate it).
 */
const TRIAL_ANSWERS = 8;

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

/** One answer as measured: asked at `sent`, its headers at `headers`, its body done at `end`. */
export interface Sample {
  /** When it was asked (`performance.now()`). */
  sent: number;
  /** When its headers came. */
  headers: number;
  /** When its body was done. */
  end: number;
  /** Bytes the wire carried. */
  wire: number;
  /** Bytes of CSV they gave (decompressed). */
  csv: number;
}

/**
 * Megabytes a second of `bytes` over the time covered by `[from(s), s.end]` of the samples, less
 * `busy`, up to `cutoff` (each sample's bytes spread evenly over its time); undefined without
 * `EVIDENCE_BYTES` of wire bytes.
 */
function rate(
  samples: Sample[],
  from: (s: Sample) => number,
  bytes: (s: Sample) => number,
  busy: Interval[],
  cutoff: number,
): number | undefined {
  const clipped = samples.flatMap((s): { at: Interval; share: number; wire: number }[] => {
    const a = from(s);
    if (a >= cutoff) return [];
    const share = s.end <= cutoff || s.end === a ? 1 : (cutoff - a) / (s.end - a);
    return [{ at: [a, Math.min(s.end, cutoff)], share: share * bytes(s), wire: share * s.wire }];
  });
  if (clipped.reduce((sum, c) => sum + c.wire, 0) < EVIDENCE_BYTES) return undefined;
  const ms = coveredMs(clipped.map((c) => c.at), busy);
  return ms <= 0 ? Number.POSITIVE_INFINITY : clipped.reduce((sum, c) => sum + c.share, 0) / ms / 1000;
}

const shown = (mbps: number) => (mbps === Number.POSITIVE_INFINITY ? "unmeasurably fast" : `${mbps.toFixed(1)} MB/s`);

/**
 * The session's wire format for one service, learnt from its pages. Two measures: the line's
 * rate (bytes on the wire over the time bodies were arriving) says when the other format may
 * pay; a trial of it then decides, by the rate of CSV each format delivered from asking to the
 * last byte (the service's writing and compressing included), and the faster one is kept for
 * the session. Where both ends share starved cores, everything looks slow, and compressing
 * makes it slower: the trial tells that apart from a slow line.
 *
 * @example
 * ```ts
 * const choice = new WireChoice("http://127.0.0.1:8000");
 * choice.decision.format; // "csv": the service is on this machine
 * choice.transferred({ sent: 0, headers: 40, end: 840, wire: 10_000_000, csv: 10_000_000 }, "csv"); // 12.5 MB/s
 * choice.decision.format; // "csv_gzip", on trial
 * ```
 */
export class WireChoice {
  #decision: WireDecision;
  #samples: Sample[] = [];
  #busy: Interval[] = [];
  /** Answers under way: when each was asked, and when its headers came (once they did). */
  #inFlight = new Set<{ sent: number; headers?: number }>();
  /**
   * On trial: the format the session had (`original`); the other format is measured first, then
   * the original again (`otherMBps` then holds the other's rate of CSV), so that both are
   * measured warm and close in time (the session's first call pays for cold caches).
   */
  #trial?: { original: ChosenFormat; otherMBps?: number };
  /** Decided by a trial: kept for the session. */
  #settled = false;
  /** Bumped at each change of format and when a trial settles: what a call says again. */
  #revision = 0;
  /** Below this many MB/s of CSV a trial of csv_gzip starts (GZIP_BELOW_MBPS, or NEARBY_GZIP_BELOW_MBPS). */
  readonly #gzipBelow: number;

  /**
   * A choice for the service at `baseUrl`.
   *
   * @param baseUrl the service's base URL: where it is sets the first choice
   */
  constructor(baseUrl: string) {
    const close = nearby(baseUrl);
    this.#gzipBelow = close ? NEARBY_GZIP_BELOW_MBPS : GZIP_BELOW_MBPS;
    this.#decision = close
      ? { format: "csv", reason: "the service is on this machine or a private network: plain CSV until its pages measure a slow line" }
      : {
        format: "csv_gzip",
        reason: "the service is across the internet: csv_gzip until its pages measure a line faster than compressing",
      };
  }

  /** The format to ask for now, and why. */
  get decision(): WireDecision {
    return this.#decision;
  }

  /** Changes at each change of format and when a trial settles (not when only a measured rate in the reason does). */
  get revision(): number {
    return this.#revision;
  }

  /** An answer was asked for at `sentMs` (`performance.now()`); the handle hears its headers, and its end or failure. */
  asked(sentMs: number): { headers: (atMs: number) => void; ended: () => void } {
    const entry: { sent: number; headers?: number } = { sent: sentMs };
    this.#inFlight.add(entry);
    return { headers: (atMs) => void (entry.headers = atMs), ended: () => void this.#inFlight.delete(entry) };
  }

  /** An answer asked in `format` was measured (its times from `performance.now()`). */
  transferred(sample: Sample, format: string): void {
    if (format !== this.#decision.format || !(sample.end >= sample.headers && sample.headers >= sample.sent)) return;
    this.#samples.push(sample);
    if (this.#samples.length > KEPT) this.#samples.shift();
    this.#judge();
  }

  /** This thread was busy (parsing a page) from `fromMs` to `toMs`: not the line's time. */
  busy(fromMs: number, toMs: number): void {
    this.#busy.push([fromMs, toMs]);
    const oldest = this.#samples[0]?.sent ?? fromMs;
    this.#busy = this.#busy.filter(([, end]) => end >= oldest);
  }

  /** The line's rate in megabytes a second (bytes on the wire), once there is evidence enough. */
  get lineMBps(): number | undefined {
    const arriving = [...this.#inFlight].flatMap((e) => (e.headers === undefined ? [] : [e.headers]));
    return rate(this.#samples, (s) => s.headers, (s) => s.wire, this.#busy, Math.min(...arriving));
  }

  /** Megabytes of CSV a second the current format delivers, from asking to the last byte. */
  get csvMBps(): number | undefined {
    return rate(this.#samples, (s) => s.sent, (s) => s.csv, this.#busy, Math.min(...[...this.#inFlight].map((e) => e.sent)));
  }

  #judge(): void {
    const [line, csv] = [this.lineMBps, this.csvMBps];
    if (line === undefined || csv === undefined) return;
    const format = this.#decision.format;
    const name = (f: ChosenFormat) => (f === "csv" ? "plain CSV" : "csv_gzip");
    if (this.#trial) {
      if (this.#samples.length < TRIAL_ANSWERS) return;
      const { original, otherMBps } = this.#trial;
      if (otherMBps === undefined) {
        this.#trial = { original, otherMBps: csv };
        this.#switch({
          format: original,
          reason: `${name(format)} delivered ${shown(csv)} of CSV over this line (${shown(line)} measured): measuring ${
            name(original)
          } again to compare`,
        });
        return;
      }
      const other: ChosenFormat = original === "csv" ? "csv_gzip" : "csv";
      const kept = csv >= otherMBps ? original : other;
      this.#settled = true;
      this.#trial = undefined;
      this.#revision++;
      const reason = `${name(kept)}: over this line ${name(original)} delivered ${shown(csv)} of CSV, ${name(other)} ${shown(otherMBps)}`;
      if (kept === format) this.#decision = { format, reason };
      else this.#switch({ format: kept, reason });
      return;
    }
    if (this.#settled) return;
    if (format === "csv" && line < this.#gzipBelow) {
      this.#trial = { original: "csv" };
      this.#switch({
        format: "csv_gzip",
        reason: `the line measured ${shown(line)} of CSV, below ${this.#gzipBelow} MB/s: trying csv_gzip, fewer bytes for some CPU`,
      });
    } else if (format === "csv_gzip" && line >= this.#gzipBelow) {
      this.#trial = { original: "csv_gzip" };
      this.#switch({
        format: "csv",
        reason: `the line measured ${shown(line)} even of compressed bytes, above ${this.#gzipBelow} MB/s: trying plain CSV, less CPU`,
      });
    } else {
      this.#decision = { format, reason: `${name(format)}: the line measured ${shown(line)} (csv_gzip below ${this.#gzipBelow} MB/s)` };
    }
  }

  #switch(decision: WireDecision): void {
    this.#decision = decision;
    this.#revision++;
    this.#samples = [];
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
  if (!choice) choices.set(client, choice = new WireChoice(client.options.baseUrl));
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
export interface Measured {
  /** The body as read. */
  body: Uint8Array;
  /** The bytes the wire carried, when they differ from the body's. */
  wireBytes?: number;
}

/**
 * One call's view of the session's choice: pages ask `format()` when they are sent, and the
 * call says (`say`) the format it asks for, when first asked, whenever it changes and when a
 * trial settles it; `metered`
 * wraps the call's send so that each answer's transfer is measured.
 *
 * @example
 * ```ts
 * const wire = callWire(wireChoiceOf(transport), (d) => console.log(d.format, d.reason));
 * const send = wire.metered((path, params, onHeaders) => transport.get(path, params, onHeaders));
 * ```
 */
export function callWire(choice: WireChoice, say: (decision: WireDecision) => void): PageWire & {
  metered<P extends URLSearchParams, R extends Measured>(
    send: (path: string, params: P, onHeaders?: (headers: Headers) => void) => Promise<R>,
  ): (path: string, params: P, onHeaders?: (headers: Headers) => void) => Promise<R>;
} {
  let said: number | undefined;
  return {
    format() {
      const decision = choice.decision;
      if (choice.revision !== said) {
        said = choice.revision;
        say(decision);
      }
      return decision.format;
    },
    busy: (fromMs, toMs) => choice.busy(fromMs, toMs),
    metered: (send) => async (path, params, onHeaders) => {
      const sent = performance.now();
      let headers: number | undefined;
      // A body retried after a dropped connection: measured from its last headers.
      const answer = choice.asked(sent);
      try {
        const r = await send(path, params, (h) => {
          headers = performance.now();
          answer.headers(headers);
          onHeaders?.(h);
        });
        answer.ended();
        const format = params.get("response_format");
        if (headers !== undefined && format) {
          choice.transferred(
            { sent, headers, end: performance.now(), wire: r.wireBytes ?? r.body.byteLength, csv: r.body.byteLength },
            format,
          );
        }
        return r;
      } finally {
        answer.ended();
      }
    },
  };
}
