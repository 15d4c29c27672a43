/**
 * A large answer's body, handed to the server in slices and dropped when its client stops
 * taking it: if no slice is taken for the client time-out, the body fails, which makes Deno's
 * server close the connection and lets the answer's memory go. A client that never reads
 * (or has gone without closing) thus holds a page for that long at most, and a slow reader
 * that keeps reading is served at its pace. Bodies still being sent when the sandbox stops
 * are cut at the shutdown deadline (`cutAll`).
 */

/** Bytes handed to the server at a time: small enough that a reader at a few kB/s still takes one well within any time-out. */
const SLICE = 256 * 1024;

const live = new Set<() => void>();

/** Lets a timer not keep the process alive (Node's `unref`, Deno's `unrefTimer`). */
function unref(timer: ReturnType<typeof setTimeout>): void {
  const deno = (globalThis as { Deno?: { unrefTimer(id: number): void } }).Deno;
  if (typeof timer === "number") deno?.unrefTimer(timer);
  else (timer as { unref?: () => void }).unref?.();
}

/**
 * `body` in slices of at most 256 KiB, failing when `stallMs` pass without its reader taking a
 * slice.
 *
 * @example
 * ```ts
 * return new Response(guardBody(response.body!, 30_000), response);
 * ```
 */
export function guardBody(body: ReadableStream<Uint8Array>, stallMs: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let pending: Uint8Array = new Uint8Array(0);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fail: (() => void) | undefined;
  const done = () => {
    clearTimeout(timer);
    if (fail) live.delete(fail);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      fail = () => {
        done();
        controller.error(new Error("the client took nothing of the answer for too long"));
        reader.cancel().catch(() => {});
      };
      live.add(fail);
    },
    async pull(controller) {
      clearTimeout(timer);
      if (pending.length === 0) {
        const next = await reader.read();
        if (next.done) {
          done();
          return controller.close();
        }
        pending = next.value;
      }
      controller.enqueue(pending.subarray(0, SLICE));
      pending = pending.subarray(Math.min(SLICE, pending.length));
      timer = setTimeout(() => fail?.(), stallMs);
      unref(timer);
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/**
 * Fails every body still being sent (their connections close); returns how many there were.
 *
 * @example
 * ```ts
 * const cut = cutAll(); // at the shutdown deadline
 * ```
 */
export function cutAll(): number {
  const all = [...live];
  for (const fail of all) fail();
  return all.length;
}
