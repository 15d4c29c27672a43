/**
 * The universe pull as raw transfer: each ticker's 20 days of eq-taq-1min as one CSV page,
 * fetched with plain fetch, `concurrency` pages in flight, not parsed. The baseline of
 * bench/universe.ts's client ways, and the load of bench/sandboxPull.ts.
 */
import type { Pull } from "./clientLayers.ts";

/**
 * Fetches every ticker's page and returns the bytes received; a page not answered 200 is an error naming its ticker.
 *
 * @example
 * ```ts
 * const bytes = await rawPull({ baseUrl, apiKey: "demo-full-access", tickers: ["AAPL"], start: "2023-11-01", end: "2023-11-29", concurrency: 4 });
 * ```
 */
export async function rawPull({ baseUrl, apiKey, tickers, start, end, concurrency }: Pull): Promise<number> {
  let bytes = 0, next = 0;
  const worker = async () => {
    while (next < tickers.length) {
      const t = tickers[next++];
      const q = new URLSearchParams({ "TradeDate.ge": start, "TradeDate.le": end, offset: "0", limit: "100000", response_format: "csv" });
      const r = await fetch(`${baseUrl}/api/v1/data/us-equity/eq-taq-1min/${encodeURIComponent(t)}?${q}`, {
        headers: { "X-API-KEY": apiKey },
      });
      if (r.status !== 200) throw new Error(`raw transfer: ${t} answered ${r.status}`);
      const body = await r.arrayBuffer(); // read before adding: `bytes += await ...` would lose updates
      bytes += body.byteLength;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return bytes;
}
