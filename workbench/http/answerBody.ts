/**
 * An answer's body as the client uses it. A `csv_gzip` page (application/gzip) is decompressed
 * as it streams in: each chunk goes through the decompressor as it arrives, so over a line the
 * gunzip runs while the rest of the page is still on the wire, and the compressed page is never
 * held whole. The CSV comes out in the decompressor's chunks, joined once into the one buffer
 * the CSV reader takes. Any other body is read whole (readBody.ts).
 */
import { readBody } from "./readBody.ts";

/** A body read: the bytes to parse, and what the wire carried. */
export interface AnswerBody {
  /** The body, decompressed when it came gzip-compressed. */
  body: Uint8Array;
  /** Bytes the wire carried (the compressed ones for a gzip body). */
  wireBytes: number;
  /** True when `body` is the decompressed content of a gzip answer. */
  decoded: boolean;
}

/**
 * Whether an answer's content type is a gzip body (a `csv_gzip` page).
 *
 * @example
 * ```ts
 * isGzipAnswer(new Headers({ "Content-Type": "application/gzip" })); // true
 * ```
 */
function isGzipAnswer(headers: Headers): boolean {
  return (headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase() === "application/gzip";
}

/**
 * The body of `response`, a gzip one decompressed as it streams in. A stream that fails (a
 * dropped connection) or is not gzip rejects, as reading a plain body does.
 *
 * @example
 * ```ts
 * import { gzipSync } from "node:zlib";
 * const answer = new Response(gzipSync("a,b\n1,2\n"), { headers: { "Content-Type": "application/gzip" } });
 * const { body, wireBytes, decoded } = await readAnswerBody(answer);
 * new TextDecoder().decode(body); // "a,b\n1,2\n"
 * ```
 */
export async function readAnswerBody(response: Response): Promise<AnswerBody> {
  if (!isGzipAnswer(response.headers) || response.body === null) {
    const body = await readBody(response);
    return { body, wireBytes: body.byteLength, decoded: false };
  }
  let wireBytes = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        wireBytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  const reader = counted.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  return { body: joined(chunks, length), wireBytes, decoded: true };
}

/** The chunks as one buffer: the one chunk itself, else one copy into a buffer of their length. */
function joined(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
