/**
 * An answer's body read into a buffer of its stated length gives exactly the bytes
 * `arrayBuffer()` gives, whatever the headers claim and however the chunks arrive.
 */
import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { readBody } from "../../workbench/http/readBody.ts";

const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251);

/** A response whose body arrives in the given chunks, then ends (or fails with `error`). */
function chunked(chunks: Uint8Array[], headers: Record<string, string>, error?: Error): Response {
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else if (error) controller.error(error);
      else controller.close();
    },
  });
  return new Response(stream, { headers });
}

const split = (all: Uint8Array, sizes: number[]) => {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) out.push(all.slice(at, (at += size)));
  if (at < all.byteLength) out.push(all.slice(at));
  return out;
};

describe("readBody", () => {
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
    const body = await readBody(chunked(split(all, [16_384, 16_384]), { "Content-Length": String(encoded.byteLength), "Content-Encoding": "gzip" }));
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
