/**
 * Interrupting a running call (the kernel's stop button reaches `interruptCalls()`; a caller's
 * own `signal` does the same for one call), against the sandbox's app in-process behind a
 * gate that holds data pages once a few have been answered, as a slow service would: the
 * call ends at once with an InterruptedError that says how many rows of how many it fetched,
 * keeps them on `partial` and resumes to the same frame as an uninterrupted call; the
 * progress stream ends "interrupted"; a download keeps its written chunks and a re-run
 * fetches only the rest; later calls are not affected.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  interruptCalls,
  InterruptedError,
  lastInterrupted,
  type ProgressEvent,
  QueryError,
  type Workbench,
} from "../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { expectSameFrame } from "./support/frames.ts";

/** Holds every data request after the first `open` until `release()`; counts them. */
class Gate {
  open = Number.POSITIVE_INFINITY;
  sent = 0;
  #waiting: (() => void)[] = [];
  /** Resolves once `count` data requests were let through and answered. */
  answered = 0;
  hold(after: number): void {
    this.open = after;
    this.sent = 0;
    this.answered = 0;
  }
  release(): void {
    this.open = Number.POSITIVE_INFINITY;
    for (const go of this.#waiting.splice(0)) go();
  }
  wrap(fetch: AppSandbox["fetch"]): AppSandbox["fetch"] {
    return async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/api/v1/data/") && ++this.sent > this.open) await new Promise<void>((go) => this.#waiting.push(go));
      const answer = await fetch(input, init);
      if (url.includes("/api/v1/data/")) this.answered++;
      return answer;
    };
  }
}

const until = async (check: () => boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
};

let sb: AppSandbox;
let wb: Workbench;
const gate = new Gate();
const dir = mkdtempSync(join(tmpdir(), "interrupt-"));
beforeAll(async () => {
  sb = await openAppSandbox();
  wb = await connect({ baseUrl: sb.baseUrl, fetch: gate.wrap(sb.fetch), apiKey: "demo-full-access", provenance: false });
});
afterAll(async () => {
  gate.release();
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const TICKERS = ["SPY", "AAPL", "MSFT", "JPM"];
const DAYS = { start: "2023-11-20", end: "2023-11-21" };

describe("interruptCalls()", () => {
  it("ends a universe call at once with the rows fetched so far, which resume to the whole frame", async () => {
    const whole = await wb.data.eqTaq1Min(TICKERS, { ...DAYS, pageSize: 250 });
    const events: ProgressEvent[] = [];
    gate.hold(5);
    const call = wb.data.eqTaq1Min(TICKERS, { ...DAYS, pageSize: 250, onProgress: (e) => events.push(e) });
    await until(() => gate.answered >= 5);
    const asked = performance.now();
    expect(interruptCalls()).toBe(1);
    const error = await call.catch((e) => e);
    const took = performance.now() - asked;
    expect(error).toBeInstanceOf(InterruptedError);
    expect(took).toBeLessThan(500);
    expect(error.by).toBe("interrupt");
    // Five pages answered: every row of them kept (in the order asked), none of the held ones.
    expect(error.rows).toBe(error.partial.height);
    expect(error.rows).toBeGreaterThanOrEqual(4 * 250);
    expect(error.rows).toBeLessThan(whole.height);
    expect(error.expectedRows).toBeGreaterThanOrEqual(whole.height);
    expect(error.message).toBe(
      `Interrupted: eq-taq-1min fetched ${error.rows.toLocaleString("en-US")} rows (of about ${
        error.expectedRows.toLocaleString("en-US")
      }; ${error.parts.done} of 4 tickers complete). They are on lastInterrupted().partial; await lastInterrupted().resume() fetches the rest.`,
    );
    expect(lastInterrupted()).toBe(error);
    expect(events.at(-1)).toMatchObject({ done: true, stopped: "interrupted" });
    gate.release();
    expectSameFrame(await error.resume(), whole);
  });

  it("ends a call waiting out a 503's Retry-After at once, and sends nothing more", async () => {
    let unavailable = 0;
    const busy = await connect({
      baseUrl: sb.baseUrl,
      apiKey: "demo-full-access",
      provenance: false,
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (!url.includes("/api/v1/data/")) return sb.fetch(input, init);
        unavailable++;
        return Promise.resolve(
          new Response(JSON.stringify({ detail: "Service unavailable" }), {
            status: 503,
            headers: { "Content-Type": "application/json", "Retry-After": "1" },
          }),
        );
      },
    });
    const call = busy.data.eqDailyOhlc("AAPL", DAYS);
    await until(() => unavailable >= 1);
    await new Promise((r) => setTimeout(r, 50)); // in its wait
    const asked = performance.now();
    interruptCalls();
    await expect(call).rejects.toThrow(InterruptedError);
    expect(performance.now() - asked).toBeLessThan(500);
    await new Promise((r) => setTimeout(r, 1500)); // past the Retry-After: an abandoned wait would retry now
    expect(unavailable).toBe(1);
  });

  it("leaves calls started afterwards alone", async () => {
    interruptCalls();
    expect((await wb.data.eqDailyOhlc("AAPL", DAYS)).height).toBe(2);
  });

  it("stops a download whose finished chunks stay in the lake: a re-run fetches the rest", async () => {
    const lake = join(dir, "bars");
    gate.hold(2);
    const download = wb.download("eq-taq-1min", { tickers: TICKERS, ...DAYS }, lake, { chunkDays: 1 });
    await until(() => gate.answered >= 2);
    interruptCalls();
    const error = await download.catch((e) => e);
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error.message).toMatch(
      new RegExp(
        `^Interrupted: the download of eq-taq-1min into '${lake}' wrote 1,920 rows \\(of about [\\d,]+; 2 of 8 chunks complete\\)\\. Run the same wb\\.download again: it fetches only what is missing\\.$`,
      ),
    );
    gate.release();
    const again = await wb.download("eq-taq-1min", { tickers: TICKERS, ...DAYS }, lake, { chunkDays: 1 });
    expect(again).toMatchObject({ resumed: true, fetched: 6, partitions: 8 });
  });
});

describe("the error's message", () => {
  it("says when nothing was fetched yet, and what a download keeps", () => {
    const base = { by: "interrupt" as const, dataset: "eq-taq-1min", parts: { done: 0, total: 13, noun: "tickers" } };
    expect(new InterruptedError({ ...base, kind: "call", rows: 0, expectedRows: 511_680 }).message)
      .toBe(
        "Interrupted: eq-taq-1min fetched no rows yet (of about 511,680; 0 of 13 tickers complete). await lastInterrupted().resume() fetches them.",
      );
    expect(new InterruptedError({ ...base, kind: "call", rows: 1_234, parts: { done: 0, total: 1, noun: "tickers" } }).message)
      .toBe(
        "Interrupted: eq-taq-1min fetched 1,234 rows (the total not yet known). They are on lastInterrupted().partial; await lastInterrupted().resume() fetches the rest.",
      );
    expect(
      new InterruptedError({
        ...base,
        by: "signal",
        reason: new DOMException("The operation timed out.", "TimeoutError"),
        kind: "download",
        dir: "lake/bars",
        rows: 99,
        expectedRows: 50,
        parts: { done: 1, total: 4, noun: "chunks" },
      }).message,
    )
      .toBe(
        "Aborted by the call's signal (The operation timed out.): the download of eq-taq-1min into 'lake/bars' wrote 99 rows (of about 99; 1 of 4 chunks complete). Run the same wb.download again: it fetches only what is missing.",
      );
  });
});

describe("a call's own signal", () => {
  it("aborts that call only, and says so", async () => {
    gate.hold(1);
    const controller = new AbortController();
    const mine = wb.data.eqTaq1Min("SPY", { ...DAYS, pageSize: 500, signal: controller.signal });
    await until(() => gate.answered >= 1);
    controller.abort("enough");
    const error = await mine.catch((e) => e);
    gate.release();
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error.by).toBe("signal");
    expect(error.message).toMatch(
      /^Aborted by the call's signal \(enough\): eq-taq-1min fetched 500 rows \((of about [\d,]+|the total not yet known)\)\. They are on lastInterrupted\(\)\.partial; await lastInterrupted\(\)\.resume\(\) fetches the rest\.$/,
    );
  });

  it("is refused when it is not an AbortSignal, before any request", async () => {
    const before = wb.transport.requestsSent;
    await expect(wb.data.eqDailyOhlc("AAPL", { signal: "stop" as never })).rejects.toThrow(QueryError);
    await expect(wb.data.eqDailyOhlc("AAPL", { signal: "stop" as never })).rejects.toThrow(
      "signal is 'stop': give an AbortSignal, such as new AbortController().signal or AbortSignal.timeout(60_000)",
    );
    expect(wb.transport.requestsSent).toBe(before);
  });
});
