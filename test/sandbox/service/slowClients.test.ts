/**
 * Slow, silent and half-sent clients against a spawned sandbox (issue 40): a connection that
 * sends no complete request head, or takes nothing of an answer, for the client time-out is
 * closed; a reader that keeps reading gets all of its answer; others are served meanwhile; and
 * on SIGTERM the sandbox exits once the grace period is over, whatever its clients do (it used
 * to wait for them for good). The sandboxes run with a one-second time-out and grace period,
 * so the file takes seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerOf, halfHead, rawSocket, requestHead, within } from "./support/rawSockets.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

const KEY = "demo-full-access";
/** About 8 MB of JSON on the test market: more than the sockets' buffers hold. */
const BIG = "/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=100000";
const FAST = ["--client-timeout", "1", "--shutdown-grace", "1"];

describe("slow and silent clients", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: FAST });
  });
  afterAll(() => sb.stop());

  it("says what it does with silent connections at start", () => {
    expect(sb.stdout).toMatch(/^connections: closed after 1 s without a complete request/m);
  });

  it("closes a half-sent request head and a connection that sends nothing after the time-out", async () => {
    const half = await rawSocket(sb.baseUrl);
    half.write(halfHead("/api/v1/account/my", KEY));
    const mute = await rawSocket(sb.baseUrl);
    const [halfMs, muteMs] = [await within(half.closed, 15_000), await within(mute.closed, 15_000)];
    // One second of time-out, swept once a quarter of it: a second or two, never held for good.
    expect(halfMs).toBeGreaterThan(900);
    expect(halfMs).toBeLessThan(10_000);
    expect(muteMs).toBeLessThan(10_000);
  });

  it("keeps a connection that is used, and closes it once it is left idle", async () => {
    const client = await rawSocket(sb.baseUrl);
    client.read();
    for (let i = 0; i < 3; i++) {
      client.write(requestHead("/api/v1/account/my", KEY));
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    expect(client.received().toString("latin1").match(/HTTP\/1\.1 200/g)).toHaveLength(3);
    expect(await within(client.closed, 15_000)).toBeGreaterThan(1800);
  });

  it("cuts an answer its client takes nothing of, while serving others meanwhile", async () => {
    const silent = await rawSocket(sb.baseUrl);
    silent.write(requestHead(BIG, KEY));
    const others: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await fetch(`${sb.baseUrl}/api/v1/account/my`, {
        headers: { "X-API-KEY": "demo-restricted" },
        signal: AbortSignal.timeout(10_000),
      });
      await r.arrayBuffer();
      others.push(r.status);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(others.every((s) => s === 200)).toBe(true);
    // Read only now: the server gave up on it after a second without progress.
    silent.read();
    await within(silent.closed, 15_000);
    const answer = answerOf(silent.received());
    expect(answer.status).toBe(200);
    expect(answer.contentLength).toBeGreaterThan(4_000_000);
    expect(answer.bodyBytes).toBeLessThan(answer.contentLength);
  });

  it("serves the whole answer to a reader that keeps reading, however slowly", async () => {
    const reader = await rawSocket(sb.baseUrl);
    reader.write(requestHead(`${BIG}&response_format=csv`, KEY));
    // About 2 MB taken 128 KiB at a time, with pauses shorter than the time-out.
    reader.socket.on("data", () => {
      reader.socket.pause();
      setTimeout(() => reader.socket.resume(), 20);
    });
    reader.read();
    const done = async () => {
      for (;;) {
        const answer = answerOf(reader.received());
        if (answer.bodyBytes >= answer.contentLength) return answer;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const answer = await within(done(), 60_000);
    expect(answer?.status).toBe(200);
    expect(answer?.bodyBytes).toBe(answer?.contentLength);
    reader.socket.destroy();
  });
});

describe("SIGTERM", () => {
  it("exits soon after the grace period with clients that never read and a half-sent request", async () => {
    const sb = await startSandbox({ args: FAST });
    const silent = await Promise.all(Array.from({ length: 4 }, () => rawSocket(sb.baseUrl)));
    for (const s of silent) s.write(requestHead(BIG, KEY));
    const half = await rawSocket(sb.baseUrl);
    half.write(halfHead("/api/v1/account/my", KEY));
    // The answers are being written when the signal comes.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = performance.now();
    const stopped = await within(sb.stop().then(() => performance.now() - started), 30_000);
    for (const s of [...silent, half]) s.socket.destroy();
    expect(stopped).toBeDefined();
    expect(stopped).toBeLessThan(10_000);
    expect(sb.stderr()).toMatch(/sandbox: stopped/);
  }, 90_000);

  it("exits at once when no answer is in progress, a half-sent head and an idle connection open", async () => {
    // A grace period of a minute, which nothing here needs to wait for.
    const sb = await startSandbox({ args: ["--shutdown-grace", "60"] });
    const half = await rawSocket(sb.baseUrl);
    half.write(halfHead("/api/v1/account/my", KEY));
    const idle = await rawSocket(sb.baseUrl);
    idle.read();
    idle.write(requestHead("/api/v1/account/my", KEY));
    while (!/^HTTP\/1\.1 200/.test(idle.received().toString("latin1"))) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    await sb.stop();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(sb.stderr()).toMatch(/^sandbox: stopped$/m);
    expect(await within(half.closed, 5_000)).toBeDefined();
    expect(await within(idle.closed, 5_000)).toBeDefined();
  }, 90_000);
});
