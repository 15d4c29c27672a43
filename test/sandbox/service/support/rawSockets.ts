/**
 * Clients that misbehave, over raw sockets (node:net), for the tests of slow and silent
 * clients: one that sends half a request head, one that sends a request and reads nothing
 * until told to, and a reader that takes an answer at its own pace.
 *
 * @example
 * ```ts
 * const half = await rawSocket(sb.baseUrl);
 * half.write(halfHead("/api/v1/account/my"));
 * const closedAfterMs = await half.closed;
 * ```
 */
import net from "node:net";
import { Buffer } from "node:buffer";

/** A socket with what it received and when the server closed it. */
export interface RawSocket {
  socket: net.Socket;
  /** Milliseconds from the connection until the server ended it (end of stream or reset). */
  closed: Promise<number>;
  /** Bytes received so far, in order (only once reading: see `read`). */
  received: () => Buffer;
  /** Starts taking what the server sends (a new socket takes nothing until then). */
  read: () => void;
  write: (text: string) => void;
}

/** Connects to the sandbox at `baseUrl` without reading anything. */
export function rawSocket(baseUrl: string): Promise<RawSocket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname.replace(/^\[|\]$/g, ""));
    const chunks: Buffer[] = [];
    let started = 0;
    const closed = new Promise<number>((done) => socket.on("close", () => done(performance.now() - started)));
    socket.on("error", () => {});
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.pause();
    socket.once("connect", () => {
      started = performance.now();
      resolve({
        socket,
        closed,
        received: () => Buffer.concat(chunks),
        read: () => socket.resume(),
        write: (text) => void socket.write(text),
      });
    });
    socket.once("error", reject);
  });
}

/** A whole GET request head. */
export const requestHead = (path: string, key: string) => `GET ${path} HTTP/1.1\r\nHost: sandbox\r\nX-API-KEY: ${key}\r\n\r\n`;

/** The first half of a GET request head (no blank line: the server waits for the rest). */
export const halfHead = (path: string, key: string) => requestHead(path, key).slice(0, 30);

/** An answer's Content-Length and the body bytes that came after the head, from what a socket received. */
export function answerOf(bytes: Buffer): { status: number; contentLength: number; bodyBytes: number } {
  const end = bytes.indexOf("\r\n\r\n");
  const head = bytes.subarray(0, end).toString("latin1");
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    contentLength: Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? NaN),
    bodyBytes: bytes.length - end - 4,
  };
}

/** Milliseconds `promise` took to settle, or undefined when it did not within `ms`. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
