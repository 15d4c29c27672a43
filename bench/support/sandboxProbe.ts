/**
 * A latency probe in its own thread (a Deno Worker), so the load generator's event loop
 * cannot delay it: one GET every `intervalMs` to a URL until told to stop, reporting every
 * latency. A stall of the service shows as one long latency.
 *
 * @example
 * ```ts
 * const probe = startProbe(`${baseUrl}/api/v1/account/my`, "demo-full-access", 20);
 * await runLoad();
 * const { ms } = await probe.stop(); // sorted latencies
 * ```
 */
/// <reference lib="deno.ns" />
import type { Samples } from "./sandboxLoad.ts";

export interface Probe {
  stop: () => Promise<Samples>;
}

export function startProbe(url: string, key: string, intervalMs: number): Probe {
  const source = `
    let running = true;
    self.onmessage = () => { running = false; };
    const ms = [];
    (async () => {
      while (running) {
        const t0 = performance.now();
        const r = await fetch(${JSON.stringify(url)}, { headers: { "X-API-KEY": ${JSON.stringify(key)} } });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error("probe answered " + r.status);
        const took = performance.now() - t0;
        ms.push(took);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, ${intervalMs} - took)));
      }
      self.postMessage(ms);
    })();
  `;
  const worker = new Worker(`data:application/javascript,${encodeURIComponent(source)}`, { type: "module" });
  const done = new Promise<number[]>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<number[]>) => resolve(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(`latency probe failed: ${e.message}`));
    };
  });
  return {
    stop: async () => {
      worker.postMessage("stop");
      const ms = await done;
      worker.terminate();
      return { ms: ms.sort((a, b) => a - b), bytes: 0 };
    },
  };
}
