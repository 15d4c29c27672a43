/**
 * The quota guard against the real sandbox: with the `demo-tiny-quota` key (50 requests a
 * month, 5 a minute) a call needing many pages stops before its second request with the
 * figures, `force: true` lets it run, and the waits for the per-minute quota are progress
 * events. A small call passes without a word.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type ProgressEvent, QuotaGuardError, type Workbench } from "../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";
import { TestClock } from "../sandbox/service/support/testClock.ts";
import { expectSameFrame } from "./support/frames.ts";

let sb: AppSandbox;
let tiny: Workbench;
let full: Workbench;
// The service's clock stands one second before a minute ends, so a per-minute refusal says
// "retry after 1 s"; once it is sent the clock moves to the same second of the next minute,
// whose window is fresh: the wait is real (and a progress event) but lasts a second, not up to 60.
const clock = new TestClock("2024-06-14T12:00:59.000Z");

beforeAll(async () => {
  sb = await openAppSandbox({ now: clock.now });
  const nextMinuteAfterRefusal = async (input: string | URL | Request, init?: RequestInit) => {
    const answer = await sb.fetch(input, init);
    if (answer.status === 429) clock.advance(60_000);
    return answer;
  };
  tiny = await connect({ baseUrl: sb.baseUrl, fetch: nextMinuteAfterRefusal, apiKey: "demo-tiny-quota" });
  full = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
});
afterAll(async () => await sb?.stop());

const usedThisMonth = async (wb: Workbench) => (await wb.account.quotasRaw()).quotas_usage.monthly_requests;
// Two days of AAPL minute bars (1,920 rows) in pages of 250: 8 requests, more than 10% of 50.
const LARGE = { start: "2023-11-20", end: "2023-11-21", pageSize: 250 };

describe("quota guard", () => {
  it("stops a call too large for the month before its second request, naming requests, rows and bytes", async () => {
    const before = await usedThisMonth(tiny);
    const error = await tiny.data.eqTaq1Min("AAPL", LARGE).then(() => expect.fail("the call ran"), (e) => e);
    expect(error).toBeInstanceOf(QuotaGuardError);
    expect(error.message).toMatch(/before its second request: the rest of this call needs about \d+ requests, [\d,]+ rows and [\d.]+ MB/);
    expect(error.message).toMatch(/requests against \d+ left this month/);
    expect(error.message).toMatch(/force: true/);
    expect(error.needed.requests).toBeGreaterThan(5);
    expect(error.remaining.monthly_requests).toBe(50 - before - 1);
    expect(await usedThisMonth(tiny)).toBe(before + 1); // the first page only
    expect(error.partial.height).toBe(250); // what the first page brought is kept
    expect(typeof error.resume).toBe("function"); // runs the call anyway (as with force: true)
  });

  it("judges a universe before sending anything: every request is known", async () => {
    const before = await usedThisMonth(tiny);
    const tickers = ["AAPL", "MSFT", "JPM", "SPY", "QQQ", "TSM", "ODFL"];
    const error = await tiny.data.eqTaq1Min(tickers, { start: "2023-11-20", end: "2023-11-21" }).catch((e) => e);
    expect(error).toBeInstanceOf(QuotaGuardError);
    expect(error.message).toMatch(/before its first request: the rest of this call needs about 7 requests/);
    expect(await usedThisMonth(tiny)).toBe(before);
  });

  it("force lets it run, and the waits for the per-minute quota are progress events", async () => {
    const events: ProgressEvent[] = [];
    const before = await usedThisMonth(tiny);
    const bars = await tiny.data.eqTaq1Min("AAPL", { ...LARGE, force: true, onProgress: (e) => events.push(e) });
    expect(bars.height).toBe(2 * 960);
    expectSameFrame(bars, await full.data.eqTaq1Min("AAPL", { start: LARGE.start, end: LARGE.end }));
    // Eight pages, and at most the pager's concurrent pages past the end.
    expect(await usedThisMonth(tiny)).toBeGreaterThanOrEqual(before + 8);
    expect(await usedThisMonth(tiny)).toBeLessThanOrEqual(before + 8 + 4);
    const waits = events.filter((e) => e.waiting);
    expect(waits.length).toBeGreaterThan(0); // 8 requests at 5 a minute (4 spent by the test before)
    expect(waits[0].waiting!.reason).toBe("per-minute quota");
    expect(waits[0].waiting!.seconds).toBeGreaterThan(0);
    expect(waits[0].waiting!.seconds).toBeLessThanOrEqual(60);
    expect(events.at(-1)).toMatchObject({ done: true, rows: bars.height });
  });

  it("a one-page call and a large call with a generous quota pass without a check that stops them", async () => {
    const sent = full.transport.requestsSent;
    const week = await full.data.eqTaq1Min("SPY", { start: "2023-11-20", end: "2023-11-28", pageSize: 500 });
    expect(week.height).toBeGreaterThan(5000);
    expect(full.transport.requestsSent - sent).toBeLessThanOrEqual(Math.ceil(week.height / 500) + 4);
  });

  it("the threshold is a connect option", async () => {
    const strict = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access", quotaGuard: { maxBytes: 100_000 } });
    await expect(strict.data.eqTaq1Min("SPY", { start: "2023-11-20", end: "2023-11-22", pageSize: 500 })).rejects.toThrow(
      /against the 0\.1 MB limit of one call/,
    );
    const off = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access", quotaGuard: false, maxWaitSeconds: 0 });
    expect((await off.data.eqTaq1Min("SPY", { start: "2023-11-20", end: "2023-11-22", pageSize: 500 })).height).toBe(3 * 960);
  });
});
