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
export async function sampleLatency(
  run: (i: number) => Promise<number | unknown>,
  count: number,
  maxMs: number,
  warmup = 3,
): Promise<Samples> {
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
export async function measureThroughput(
  client: (c: number) => Step,
  clients: number,
  maxRequests: number,
  maxMs: number,
): Promise<Throughput> {
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

/** A load run against one target in rounds: throughput, and what the server and the clients spent in CPU. */
export interface Rounds extends Throughput {
  /** Server CPU milliseconds per request (all its threads). */
  serverCpuMs: number;
  /** This process's CPU milliseconds per request (the clients). */
  clientCpuMs: number;
}

/** A target of `alternateRounds`: its clients (made once, so walks go on from round to round) and its process's CPU seconds. */
export interface RoundTarget {
  steps: Step[];
  cpuSeconds: () => number;
}

/**
 * Runs closed-loop load on two targets in alternating rounds (A B, B A, A B, ...), each round
 * `roundMs` long or `maxRequests` requests, so drift in a shared machine's load falls on
 * both alike; sums each target's rounds.
 *
 * @example
 * ```ts
 * const [one, two] = await alternateRounds(oneWorker, twoWorkers, 4, 5_000, 10_000, process.cpuUsage);
 * ```
 */
export async function alternateRounds(
  a: RoundTarget,
  b: RoundTarget,
  rounds: number,
  roundMs: number,
  maxRequests: number,
  clientCpu: () => { user: number; system: number },
): Promise<[Rounds, Rounds]> {
  const totals = [a, b].map(() => ({ requests: 0, seconds: 0, ms: [] as number[], server: 0, client: 0 }));
  const clientSeconds = () => {
    const { user, system } = clientCpu();
    return (user + system) / 1e6;
  };
  for (let r = 0; r < rounds; r++) {
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const target = [a, b][i];
      const [server0, client0] = [target.cpuSeconds(), clientSeconds()];
      const run = await measureThroughput((c) => target.steps[c], target.steps.length, maxRequests, roundMs);
      const t = totals[i];
      t.server += target.cpuSeconds() - server0;
      t.client += clientSeconds() - client0;
      t.requests += run.requests;
      t.seconds += run.seconds;
      t.ms.push(...run.latency.ms);
    }
  }
  return totals.map((t) => ({
    requests: t.requests,
    seconds: t.seconds,
    perSecond: t.requests / t.seconds,
    latency: { ms: t.ms.sort((x, y) => x - y), bytes: 0 },
    serverCpuMs: (t.server * 1000) / t.requests,
    clientCpuMs: (t.client * 1000) / t.requests,
  })) as [Rounds, Rounds];
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
