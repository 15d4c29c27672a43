/**
 * An answer's body read into one buffer. When the answer says its length (Content-Length, no
 * Content-Encoding), the body is read into a buffer of that size: straight into it when the
 * body is a byte stream (fetch's is, in Node and Deno), else by copying each chunk as it
 * arrives. `Response.arrayBuffer()` gathers the chunks into a buffer that grows as they come
 * and is then copied into JavaScript memory, which costs the client more CPU per megabyte of a
 * data page. Without a usable length it reads as `arrayBuffer()` does.
 */

/**
 * The whole body of `response` as bytes, exactly as `arrayBuffer()` gives them: a body longer
 * than its Content-Length keeps every byte, a stream that ends early gives the bytes that came,
 * and a stream that fails rejects with its error (the transport retries a dropped connection).
 *
 * @example
 * ```ts
 * import { readBody } from "./workbench/http/readBody.ts";
 * const bytes = await readBody(new Response("a,b\n1,2\n", { headers: { "Content-Length": "8" } }));
 * bytes.byteLength; // 8
 * ```
 */
export async function readBody(response: Response): Promise<Uint8Array> {
  const length = declaredLength(response.headers);
  if (length === undefined || response.body === null) return new Uint8Array(await response.arrayBuffer());
  const byob = byobReader(response.body);
  if (byob) return readInto(byob, length);
  let out = new Uint8Array(length);
  let at = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.byteLength > out.byteLength) {
      // More than the header said: nothing is dropped, the buffer grows to hold it.
      const grown = new Uint8Array(Math.max(out.byteLength * 2, at + value.byteLength));
      grown.set(out.subarray(0, at));
      out = grown;
    }
    out.set(value, at);
    at += value.byteLength;
  }
  return at === out.byteLength ? out : out.subarray(0, at);
}

/** A reader that fills the caller's buffer, when the stream is a byte stream (a fetch's body is). */
function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return undefined; // a stream of chunks (a Response built from a stream): read chunk by chunk
  }
}

/**
 * Reads the body straight into one buffer of the declared length: no chunk is allocated to be
 * copied and dropped, which halves the external memory a page allocates (V8 starts a full
 * collection for every 64 MB of it). Each read hands the buffer to the stream and back.
 */
async function readInto(reader: ReadableStreamBYOBReader, length: number): Promise<Uint8Array> {
  let buffer = new ArrayBuffer(Math.max(length, 1));
  let at = 0;
  for (;;) {
    if (at === buffer.byteLength) {
      // Full: a body longer than its header said keeps every byte, the buffer grows to hold it.
      const { done, value } = await reader.read(new Uint8Array(new ArrayBuffer(64 * 1024)));
      if (done) break;
      const grown = new Uint8Array(Math.max(buffer.byteLength * 2, at + value.byteLength));
      grown.set(new Uint8Array(buffer, 0, at));
      grown.set(value, at);
      buffer = grown.buffer;
      at += value.byteLength;
      continue;
    }
    const { done, value } = await reader.read(new Uint8Array(buffer, at, buffer.byteLength - at));
    if (value) buffer = value.buffer as ArrayBuffer;
    if (done) break;
    at += value!.byteLength;
  }
  return new Uint8Array(buffer, 0, at);
}

/** The body's length in bytes as the headers state it, when it is the length of what is read. */
function declaredLength(headers: Headers): number | undefined {
  // A decoded body (gzip, br) is longer than the Content-Length of the encoded one.
  const encoding = headers.get("Content-Encoding");
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") return undefined;
  const text = headers.get("Content-Length");
  if (text === null || !/^\d+$/.test(text.trim())) return undefined;
  const length = Number(text);
  return Number.isSafeInteger(length) ? length : undefined;
}
