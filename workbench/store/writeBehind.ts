/**
 * Writes that run behind a download's fetching: a unit's partitions are written while the
 * next units are already requested, so a fetch slot does not wait on Parquet (over a network,
 * each slot would otherwise sit idle for its unit's writes). At most `limit` units are written
 * at once (the next unit waits for one to end). The first failure is kept and thrown by the
 * next unit handed over, or by `done()`; every write settles before it is thrown, so none is
 * left running into a re-run of the download (its folder lock released).
 */

/**
 * A bounded set of background writes with the first failure kept.
 *
 * @example
 * ```ts
 * const writes = new WriteBehind(2);
 * await writes.add(() => writeUnit(frame)); // returns once the write has started (or an earlier one failed)
 * await writes.done(); // every write ended; throws the first failure
 * ```
 */
export class WriteBehind {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  /**
   * Starts `write` in the background; resolves once fewer than `limit` writes run. Throws the
   * first failure of an earlier write (after every write has settled) instead of starting it.
   */
  async add(write: () => Promise<void>): Promise<void> {
    await this.throwIfFailed();
    const job: Promise<void> = write()
      .catch((error) => void (this.failure ??= { error }))
      .finally(() => this.running.delete(job));
    this.running.add(job);
    while (this.running.size >= this.limit && this.failure === undefined) await Promise.race(this.running);
    await this.throwIfFailed();
  }

  /** Waits for every write to end; never throws (the failure stays kept for `done`). */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** Waits for every write to end, then throws the first failure if any. */
  async done(): Promise<void> {
    await this.settle();
    await this.throwIfFailed();
  }

  private async throwIfFailed(): Promise<void> {
    if (this.failure === undefined) return;
    await this.settle();
    throw this.failure.error;
  }
}
