/**
 * A csv_gzip page decompressed as it streams in gives the same bytes, and so the same frame, as
 * the page gunzipped whole: from a stream of small chunks, and over real HTTP on loopback
 * through the transport (which counts the compressed bytes the wire carried). A gzip body cut
 * short or corrupt fails, as a dropped plain body does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { readAnswerBody } from "../../workbench/http/answerBody.ts";
import { Transport } from "../../workbench/http/transport.ts";
import { type ColumnInfo, pageToFrame } from "../../workbench/frames/frames.ts";
import { Buffer } from "node:buffer";

const columns: ColumnInfo[] = [
  { name: "Ticker", data_type: "string" },
  { name: "TradeDate", data_type: "date" },
  { name: "BarDateTime", data_type: "datetime_ns" },
  { name: "Volume", data_type: "int64" },
  { name: "Price", data_type: "float64" },
] as ColumnInfo[];
const csv = Buffer.from(
  "Ticker,TradeDate,BarDateTime,Volume,Price\n" +
    Array.from(
      { length: 40_000 },
      (_, i) =>
        `T${i % 13},2023-11-2${i % 8},2023-11-20T09:${String(30 + (i % 30)).padStart(2, "0")}:00.000000000-05:00,${(i * 7919) % 100_000},${
          (100 + (i % 997) / 7).toFixed(4)
        }`,
    ).join("\n") + "\n",
);
const gz = gzipSync(csv, { level: 2 });

/** A gzip answer whose body arrives in chunks of `size` bytes, failing after `failAfter` chunks when given. */
function streamed(bytes: Uint8Array, size: number, failAfter?: number): Response {
  let at = 0;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && sent === failAfter) return controller.error(new Error("connection dropped"));
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
      sent++;
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/gzip" } });
}

describe("readAnswerBody", () => {
  it("decompresses a gzip page as its chunks arrive: the same bytes and frame as gunzipping it whole", async () => {
    const { body, wireBytes, decoded } = await readAnswerBody(streamed(gz, 1500));
    expect(decoded).toBe(true);
    expect(wireBytes).toBe(gz.byteLength);
    expect(Buffer.from(body).equals(gunzipSync(gz))).toBe(true);
    expect(pageToFrame(body, "csv", columns).frameEqual(pageToFrame(gz, "csv_gzip", columns), true)).toBe(true);
  });

  it("reads a plain body as it is", async () => {
    const { body, wireBytes, decoded } = await readAnswerBody(new Response(csv, { headers: { "Content-Type": "text/csv" } }));
    expect([decoded, wireBytes, Buffer.from(body).equals(csv)]).toEqual([false, csv.byteLength, true]);
  });

  it("fails for a gzip body cut short, dropped or corrupt", async () => {
    await expect(readAnswerBody(streamed(gz, 1500, 3))).rejects.toThrow();
    await expect(readAnswerBody(streamed(gz.subarray(0, gz.byteLength >> 1), 1500))).rejects.toThrow();
    await expect(readAnswerBody(streamed(csv, 1500))).rejects.toThrow();
  });
});

describe("the transport over real HTTP", () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/gzip", "Content-Length": String(gz.byteLength) });
      // In pieces with pauses, as a line delivers it.
      let at = 0;
      const next = () => {
        if (at >= gz.byteLength) return void response.end();
        response.write(gz.subarray(at, at + 16_384));
        at += 16_384;
        setTimeout(next, 2);
      };
      next();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("hands the pager the decompressed CSV and counts the compressed bytes", async () => {
    const transport = new Transport({ baseUrl, apiKey: "k" });
    const r = await transport.get("/api/v1/data/us-equity/eq-taq-1min/AAPL", new URLSearchParams({ response_format: "csv_gzip" }));
    expect(r.decoded).toBe(true);
    expect(r.wireBytes).toBe(gz.byteLength);
    expect(Buffer.from(r.body).equals(csv)).toBe(true);
  });
});
