/**
 * An answer's body read into a buffer of its stated length gives exactly the bytes
 * `arrayBuffer()` gives, whatever the headers claim and however the chunks arrive: from a
 * stream of chunks (read chunk by chunk) and from a byte stream, as fetch's bodies are in Node
 * and Deno (read straight into the buffer through a BYOB reader).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { readBody } from "../../workbench/http/readBody.ts";
import { Buffer } from "node:buffer";

const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251);

/** How each response's body was read: the modes asked of `getReader`. */
const readerModes: (string | undefined)[] = [];

/**
 * A response whose body arrives in the given chunks, then ends (or fails with `error`); a byte
 * stream when `byteStream` (a BYOB read then takes the chunks' bytes into the reader's buffer,
 * splitting a chunk larger than the room left).
 */
function chunkedAs(chunks: Uint8Array[], headers: Record<string, string>, error?: Error, byteStream = false): Response {
  let i = 0;
  const pull = (controller: ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController) => {
    if (i < chunks.length) controller.enqueue(chunks[i++]);
    else if (error) controller.error(error);
    else {
      controller.close();
      // A byte stream's source answers a pending read into a buffer with zero bytes, as fetch's does.
      ("byobRequest" in controller ? controller.byobRequest : null)?.respond(0);
    }
  };
  const stream = byteStream ? new ReadableStream({ type: "bytes", pull }) : new ReadableStream<Uint8Array>({ pull });
  const getReader = stream.getReader.bind(stream) as (options?: { mode?: "byob" }) => ReadableStreamReader<Uint8Array>;
  Object.assign(stream, { getReader: (options?: { mode?: "byob" }) => (readerModes.push(options?.mode), getReader(options)) });
  return new Response(stream as ReadableStream<Uint8Array>, { headers });
}

const split = (all: Uint8Array, sizes: number[]) => {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) out.push(all.slice(at, at += size));
  if (at < all.byteLength) out.push(all.slice(at));
  return out;
};

describe.each(
  [
    ["a stream of chunks", false, undefined],
    ["a byte stream", true, "byob"],
  ] as const,
)("readBody, from %s", (_kind, byteStream, mode) => {
  const chunked = (chunks: Uint8Array[], headers: Record<string, string>, error?: Error) => chunkedAs(chunks, headers, error, byteStream);

  it("reads it the way its kind allows", async () => {
    readerModes.length = 0;
    await readBody(chunked([bytes(10)], { "Content-Length": "10" }));
    expect(readerModes.at(-1)).toBe(mode);
  });

  it("assembles a body of many uneven chunks into exactly its stated length", async () => {
    const all = bytes(100_003);
    const body = await readBody(chunked(split(all, [1, 65_536, 17, 4_096, 3]), { "Content-Length": String(all.byteLength) }));
    expect(body.byteLength).toBe(all.byteLength);
    expect(Buffer.from(body).equals(Buffer.from(all))).toBe(true);
  });

  it("keeps every byte of a body longer than its Content-Length", async () => {
    const all = bytes(50_000);
    const body = await readBody(chunked(split(all, [10_000, 10_000, 10_000]), { "Content-Length": "12000" }));
    expect(Buffer.from(body).equals(Buffer.from(all))).toBe(true);
  });

  it("gives the bytes that came when the stream ends before its Content-Length", async () => {
    const all = bytes(9_000);
    const body = await readBody(chunked(split(all, [4_000]), { "Content-Length": "20000" }));
    expect(Buffer.from(body).equals(Buffer.from(all))).toBe(true);
  });

  it("reads a body without Content-Length, or with an unusable one, whole", async () => {
    const all = bytes(30_000, 3);
    for (const headers of [{}, { "Content-Length": "lots" }, { "Content-Length": "-5" }] as Record<string, string>[]) {
      const body = await readBody(chunked(split(all, [7_000, 7_000]), headers));
      expect(Buffer.from(body).equals(Buffer.from(all))).toBe(true);
    }
  });

  it("does not cut a decoded body to the Content-Length of the encoded one", async () => {
    // What fetch hands over for a gzip-encoded answer: the decoded bytes, the encoded length.
    const all = bytes(40_000);
    const encoded = gzipSync(all);
    expect(encoded.byteLength).toBeLessThan(all.byteLength);
    const body = await readBody(
      chunked(split(all, [16_384, 16_384]), { "Content-Length": String(encoded.byteLength), "Content-Encoding": "gzip" }),
    );
    expect(Buffer.from(body).equals(Buffer.from(all))).toBe(true);
  });

  it("rejects with the stream's error when the connection drops mid-body", async () => {
    const all = bytes(10_000);
    const dropped = chunked(split(all, [5_000]), { "Content-Length": "10000" }, new Error("connection reset"));
    await expect(readBody(dropped)).rejects.toThrow("connection reset");
  });

  it("reads an empty body as zero bytes", async () => {
    expect((await readBody(new Response(new Uint8Array(0), { headers: { "Content-Length": "0" } }))).byteLength).toBe(0);
    expect((await readBody(new Response(null, { status: 204 }))).byteLength).toBe(0);
  });
});

describe("readBody, of a real answer on loopback", () => {
  const all = bytes(300_001, 5);
  let server: Server;
  let base = "";
  beforeAll(async () => {
    // The body in two writes a moment apart: the read waits for the second, into the same buffer.
    server = createServer((request, response) => {
      const length = request.url === "/empty" ? 0 : all.byteLength;
      response.writeHead(200, { "Content-Length": String(length), "Content-Type": "text/csv" });
      if (length === 0) return void response.end();
      response.write(all.subarray(0, 100_000));
      setTimeout(() => response.end(all.subarray(100_000)), 30);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reads fetch's body whole, through a reader that fills its buffer", async () => {
    const getReader = vi.spyOn(ReadableStream.prototype, "getReader");
    const body = await readBody(await fetch(`${base}/page`));
    expect(getReader.mock.calls.map(([options]) => options?.mode)).toEqual(["byob"]);
    getReader.mockRestore();
    expect(body.byteLength).toBe(all.byteLength);
    expect(Buffer.from(body).equals(Buffer.from(all))).toBe(true);
    expect((await readBody(await fetch(`${base}/empty`))).byteLength).toBe(0);
  }, 10_000);
});
