/**
 * Key guessing is slowed (issue 40): an address may present 20 invalid keys at once, then one
 * every 3 seconds; past that, every request from it is 429 with Retry-After, whatever key it
 * carries, except a valid key that authenticated from that address before. Other addresses,
 * and tests that use many valid keys from many addresses, are untouched. In-process, on a
 * clock the test moves, with addresses told apart by X-Forwarded-For from a trusted proxy; the
 * last part counts the guesses of two workers together on a spawned sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";
import { createQuotaAccount } from "./support/quotaAccounts.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";
import { TestClock } from "./support/testClock.ts";

const ME = "/api/v1/account/my";
const from = (address: string) => ({ "X-Forwarded-For": address });

describe("invalid keys from one address", () => {
  const clock = new TestClock("2030-06-14T12:00:00.000Z");
  let sb: AppSandbox;
  beforeAll(async () => {
    sb = await openAppSandbox({ now: clock.now, settings: { trustedProxies: ["127.0.0.1/32"] } });
  });
  afterAll(() => sb.stop());

  const status = async (key: string, address: string) => {
    const r = await sb.get(ME, key, from(address));
    return { status: r.status, retryAfter: r.headers.get("Retry-After"), body: await r.json() };
  };

  it("answers 20 invalid keys 401, then 429 with Retry-After to every key not used from there before", async () => {
    const address = "203.0.113.1";
    expect((await status("demo-full-access", address)).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await status(`guess-number-${i}`, address)).status).toBe(401);
    const refused = await status("guess-number-20", address);
    expect(refused).toEqual({
      status: 429,
      retryAfter: "3",
      body: { detail: "Too many invalid API keys from this address: try again in 3 s" },
    });
    // A valid key never used from the address is refused the same way: the refusal says nothing about the key.
    expect(await status("demo-restricted", address)).toEqual(refused);
    // Its owner's key, used from there before, still works.
    expect((await status("demo-full-access", address)).status).toBe(200);
  });

  it("lets one more guess through every 3 seconds", async () => {
    const address = "203.0.113.2";
    for (let i = 0; i < 20; i++) await status(`guess-number-${i}`, address);
    expect((await status("guess-late-1", address)).status).toBe(429);
    clock.advance(1000);
    expect((await status("guess-late-2", address)).retryAfter).toBe("2");
    clock.advance(2000);
    expect((await status("guess-late-3", address)).status).toBe(401);
    expect((await status("guess-late-4", address)).status).toBe(429);
    // After a minute the burst is back, and a valid key new to the address passes once a token is there.
    clock.advance(60_000);
    expect((await status("demo-restricted", address)).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await status(`guess-again-${i}`, address)).status).toBe(401);
    expect((await status("guess-again-20", address)).status).toBe(429);
    expect((await status("demo-restricted", address)).status).toBe(200);
  });

  it("leaves other addresses alone, and counts malformed and revoked keys as guesses too", async () => {
    const address = "203.0.113.3";
    for (let i = 0; i < 20; i++) await status(i % 2 === 0 ? "x" : `bad key ${i}`, address);
    expect((await status("guess", address)).status).toBe(429);
    expect((await status("guess", "203.0.113.4")).status).toBe(401);
    expect((await status("demo-tiny-quota", "203.0.113.5")).status).toBe(200);
  });

  it("never slows many valid keys from many addresses", async () => {
    const account = await createQuotaAccount(sb.statePath, {
      name: "many keys",
      perMinute: 1000,
      monthly: 100_000,
      identities: 3,
      keysPerIdentity: 3,
    });
    for (let a = 0; a < 30; a++) {
      for (const key of account.keys.flat()) expect((await status(key, `198.51.100.${a}`)).status).toBe(200);
    }
  });
});

describe("invalid keys on a spawned sandbox with two workers", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--workers", "2"] });
  });
  afterAll(() => sb.stop());

  it("counts the guesses of every worker together: 20 answered 401 (a refill meanwhile may add one or two), the rest 429", async () => {
    await sb.get(ME, "demo-full-access");
    const statuses: number[] = [];
    // Fresh connections, so the kernel spreads them over both workers.
    await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const r = await fetch(`${sb.baseUrl}${ME}`, { headers: { "X-API-KEY": `guess-${i}-of-forty`, Connection: "close" } });
      await r.arrayBuffer();
      statuses.push(r.status);
    }));
    const count = (s: number) => statuses.filter((x) => x === s).length;
    // One more may pass if the requests take longer than a refill (3 s) on a busy machine.
    expect(count(401)).toBeGreaterThanOrEqual(20);
    expect(count(401)).toBeLessThanOrEqual(22);
    expect(count(429)).toBe(40 - count(401));
    expect((await sb.get(ME, "demo-full-access")).status).toBe(200);
  });
});
