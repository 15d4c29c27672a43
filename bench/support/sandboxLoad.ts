/**
 * Load for the sandbox benchmark: sequential latency samples (bounded in count and time),
 * closed-loop concurrent clients for throughput, interleaved A/B samples (so drift in the
 * machine's load hits both sides alike), and percentiles. Every response body is read in
 * full and every status checked: a figure from failed requests is no figure.
 */

export const KEY = "demo-full-access";

export interface Samples {
  /** Milliseconds, sorted ascending. */
  ms: number[];
  bytes: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Fetches a URL and reads the whole body; throws on any status but 200. */
export async function fetchAll(url: string, headers: Record<string, string> = {}): Promise<number> {
  const r = await fetch(url, { headers: { "X-API-KEY": KEY, ...headers } });
  const body = new Uint8Array(await r.arrayBuffer());
  if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}: ${new TextDecoder().decode(body).slice(0, 300)}`);
  return body.byteLength;
}

/** Times `run` sequentially after `warmup` untimed runs, up to `count` samples or `maxMs`. */
export async function sampleLatency(run: (i: number) => Promise<number | unknown>, count: number, maxMs: number, warmup = 3): Promise<Samples> {
  for (let i = 0; i < warmup; i++) await run(i);
  const ms: number[] = [];
  let bytes = 0;
  const deadline = performance.now() + maxMs;
  for (let i = 0; i < count && performance.now() < deadline; i++) {
    const t0 = performance.now();
    const result = await run(i);
    ms.push(performance.now() - t0);
    if (typeof result === "number") bytes = result;
  }
  return { ms: ms.sort((a, b) => a - b), bytes };
}

/** Samples two runs alternately (A, B, A, B, ...), each `count` times or until `maxMs`. */
export async function sampleInterleaved(
  a: (i: number) => Promise<unknown>,
  b: (i: number) => Promise<unknown>,
  count: number,
  maxMs: number,
): Promise<[Samples, Samples]> {
  for (let i = 0; i < 3; i++) {
    await a(i);
    await b(i);
  }
  const [msA, msB]: number[][] = [[], []];
  const deadline = performance.now() + maxMs;
  for (let i = 0; i < count && performance.now() < deadline; i++) {
    for (const [run, ms] of [[a, msA], [b, msB]] as const) {
      const t0 = performance.now();
      await run(i);
      ms.push(performance.now() - t0);
    }
  }
  return [{ ms: msA.sort((x, y) => x - y), bytes: 0 }, { ms: msB.sort((x, y) => x - y), bytes: 0 }];
}

export interface Throughput {
  requests: number;
  seconds: number;
  perSecond: number;
  latency: Samples;
}

/** One client's next request: resolves when its response is read in full. */
export type Step = () => Promise<unknown>;

/**
 * `clients` closed-loop clients (each from `client(c)`, a function making its requests one
 * after another) share `maxRequests` requests, stopping early at `maxMs`.
 */
export async function measureThroughput(client: (c: number) => Step, clients: number, maxRequests: number, maxMs: number): Promise<Throughput> {
  let issued = 0;
  const ms: number[] = [];
  const started = performance.now();
  const deadline = started + maxMs;
  const run = async (step: Step) => {
    while (issued < maxRequests && performance.now() < deadline) {
      issued++;
      const t0 = performance.now();
      await step();
      ms.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => run(client(c))));
  const seconds = (performance.now() - started) / 1000;
  return { requests: ms.length, seconds, perSecond: ms.length / seconds, latency: { ms: ms.sort((a, b) => a - b), bytes: 0 } };
}

/**
 * A client walking pages by X-Pagination-Next-Offset: `pathAt(k)` is its k-th query (without
 * offset); when a query has no next page the client moves on to the next one.
 */
export function pageWalker(baseUrl: string, pathAt: (k: number) => string): Step {
  let k = 0;
  let offset = 0;
  return async () => {
    const url = `${baseUrl}${pathAt(k)}&offset=${offset}`;
    const r = await fetch(url, { headers: { "X-API-KEY": KEY } });
    const body = await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}: ${new TextDecoder().decode(body).slice(0, 300)}`);
    const next = r.headers.get("X-Pagination-Next-Offset");
    if (next === null || next === "") {
      k++;
      offset = 0;
    } else offset = Number(next);
  };
}
