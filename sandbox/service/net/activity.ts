/**
 * What one worker knows of its connections: which have a request in progress (from the
 * handler's call until its answer is sent or abandoned, `info.completed`), and when each last
 * finished one. The idle-connection closer (idleCloser.ts) asks every worker for this before it
 * closes a connection that has sent no request for too long, so a connection busy with a
 * request is never closed as idle.
 */

/** What a worker reports: connections (`host|port` of the peer) busy now, and how long ago the others finished a request. */
export interface ActivityReport {
  busy: string[];
  /** Milliseconds since each connection's last request finished. */
  idleMs: Record<string, number>;
}

/**
 * The key of a connection: its peer's address and port, as the handler sees them.
 *
 * @example
 * ```ts
 * connectionKey({ hostname: "127.0.0.1", port: 51234 }); // "127.0.0.1|51234"
 * ```
 */
export const connectionKey = (peer: { hostname: string; port: number }) => `${peer.hostname}|${peer.port}`;

/**
 * Requests in progress and last completions, by connection.
 *
 * @example
 * ```ts
 * const activity = new ConnectionActivity();
 * activity.begin(key);
 * info.completed.finally(() => activity.end(key));
 * ```
 */
export class ConnectionActivity {
  readonly #busy = new Map<string, number>();
  readonly #finished = new Map<string, number>();

  /** A request on `key` began. */
  begin(key: string): void {
    this.#busy.set(key, (this.#busy.get(key) ?? 0) + 1);
  }

  /** A request on `key` ended (answered, or abandoned by its client). */
  end(key: string): void {
    const n = (this.#busy.get(key) ?? 1) - 1;
    if (n > 0) this.#busy.set(key, n);
    else this.#busy.delete(key);
    this.#finished.set(key, performance.now());
  }

  /** The report for the closer; completions older than `forgetMs` are forgotten (their connections are long closed or idle past any time-out). */
  report(forgetMs: number): ActivityReport {
    const now = performance.now();
    const idleMs: Record<string, number> = {};
    for (const [key, at] of this.#finished) {
      if (now - at > forgetMs) this.#finished.delete(key);
      else idleMs[key] = now - at;
    }
    return { busy: [...this.#busy.keys()], idleMs };
  }
}
