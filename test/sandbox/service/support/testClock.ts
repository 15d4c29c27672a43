/**
 * A clock a test moves by hand, for an in-process sandbox (`openAppSandbox({ now: clock.now })`):
 * quota windows and key expiry follow it, so a test reaches the next minute by advancing the
 * clock instead of sleeping until the wall clock gets there.
 *
 * @example
 * ```ts
 * const clock = new TestClock("2030-06-14T12:00:59.000Z"); // one second before a minute ends
 * const sb = await openAppSandbox({ now: clock.now });
 * clock.advance(60_000); // the same second of the next minute
 * ```
 */
export class TestClock {
  #ms: number;

  /** Starts at `start` (an ISO date-time or a Date) and stays there until moved. */
  constructor(start: string | Date) {
    this.#ms = new Date(start).getTime();
    if (Number.isNaN(this.#ms)) throw new Error(`TestClock: '${String(start)}' is not a date-time such as 2030-06-14T12:00:59Z`);
  }

  /** The clock's time (a fresh Date each call); bound, so it can be handed on as `now`. */
  readonly now = (): Date => new Date(this.#ms);

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`TestClock.advance: '${ms}' is not a number of milliseconds (0 or more): the clock never goes back`);
    this.#ms += ms;
  }
}
