/**
 * A line shared by every connection (`--line MBPS`): the one link a researcher's pull goes
 * through, where four requests in flight divide the same megabytes a second instead of each
 * getting its own (`--bandwidth` paces each connection apart). One token bucket for every
 * answer's body: each slice of a body reserves its time on the line (after whatever is reserved
 * already) and leaves when that time is over, so bodies sent together share the rate and their
 * last bytes leave no earlier than their total over the rate. The bucket holds no burst: time
 * the line stood idle is not saved up.
 *
 * The line's clock lives in a SharedArrayBuffer, so the sandbox's workers (threads, each with
 * its own connections) share one line: `server.ts` makes the buffer and hands it to each.
 */

/** Microseconds since the epoch, the same in every worker (`performance.now()` alone is not). */
const nowUs = (): bigint => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));

/**
 * One line, at `megabytesPerSecond` (10^6 bytes a second), over a shared clock.
 *
 * @example
 * ```ts
 * const line = new SharedLine(new SharedArrayBuffer(8), 12.5); // 100 Mbit/s
 * const leavesAtMs = line.reserve(50_000); // about 4 ms from now on an idle line
 * ```
 */
export class SharedLine {
  /** Slot 0: when the line is next free, in microseconds since the epoch. */
  readonly #freeAt: BigInt64Array;
  readonly #bytesPerUs: number;

  /**
   * @param clock eight bytes shared by every worker of one sandbox (`SharedLine.clock()`)
   * @param megabytesPerSecond the line's rate, more than 0
   */
  constructor(clock: SharedArrayBuffer, readonly megabytesPerSecond: number) {
    if (!(megabytesPerSecond > 0)) throw new RangeError(`a line of ${megabytesPerSecond} MB/s carries nothing: give more than 0`);
    this.#freeAt = new BigInt64Array(clock, 0, 1);
    this.#bytesPerUs = megabytesPerSecond;
  }

  /** A fresh clock for one sandbox's line (eight shared bytes). */
  static clock(): SharedArrayBuffer {
    return new SharedArrayBuffer(8);
  }

  /**
   * Reserves `bytes` on the line after what is reserved already; returns when they have left,
   * as `performance.now()` milliseconds of the calling thread.
   */
  reserve(bytes: number): number {
    const duration = BigInt(Math.ceil(bytes / this.#bytesPerUs));
    for (;;) {
      const free = Atomics.load(this.#freeAt, 0);
      const now = nowUs();
      const start = free > now ? free : now;
      const end = start + duration;
      if (Atomics.compareExchange(this.#freeAt, 0, free, end) === free) return Number(end) / 1000 - performance.timeOrigin;
    }
  }
}
