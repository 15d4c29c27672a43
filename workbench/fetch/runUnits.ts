/** Runs a call's units concurrently, a bounded number at once. */

/**
 * Runs `count` tasks, at most `concurrency` at once, results in index order. After the first
 * failure no new task starts; the tasks under way finish, then the first error is thrown.
 */
export async function runUnits<T>(count: number, concurrency: number, run: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < count) {
      const i = next++;
      try {
        results[i] = await run(i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  if (failure) throw failure.error;
  return results;
}
