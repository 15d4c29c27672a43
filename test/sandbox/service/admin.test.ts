/**
 * The admin command (`npm run sandbox-admin`) against the state file of a running sandbox:
 * every change it makes shows over HTTP at the next request, because the service reads keys,
 * accounts and settings from SQLite per request. The commands run in the test's process (the
 * sandbox is another process all the same); the entry point's own test starts it as a child.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, adminJson, adminProcess } from "./support/admin.ts";
import { roomInMinute } from "./support/quotaClock.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";

interface CreatedKey {
  id: number;
  identity_id: number;
  expires_at: string | null;
  key: string;
}

const DAILY = "/api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL&limit=2";
const FULL_ACCESS_IDENTITY = 1;
const RESTRICTED_IDENTITY = 2;

describe("the admin command against a running sandbox", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.stop());

  const run = (...args: string[]) => admin(sb.statePath, ...args);
  const json = <T>(...args: string[]) => adminJson<T>(sb.statePath, ...args);
  const detail = async (r: Response) => ((await r.json()) as { detail: unknown }).detail;

  it("lists the demo identities with their team, subnets and state", async () => {
    const identities = await json<{ identity_id: number; name: string; team_id: number; ip_subnets: string[]; deactivated: boolean }[]>(
      "identities",
    );
    expect(identities.find((i) => i.name === "Demo IP restricted")).toMatchObject({
      ip_subnets: ["10.0.0.0/8", "fd00::/8"],
      deactivated: false,
    });
    expect(identities.find((i) => i.name === "Demo deactivated")?.deactivated).toBe(true);
    const text = await run("identities");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^id\s+name\s+team\s+max-keys\s+subnets\s+deactivated$/m);
    expect(text.stdout).toMatch(/Demo IP restricted\s+3 Demo IP restricted team\s+5\s+10\.0\.0\.0\/8,fd00::\/8\s+no/);
  });

  it("creates a key that works over HTTP at once, and prints it only when creating it", async () => {
    const created = await run("keys", "create", "--identity", String(FULL_ACCESS_IDENTITY));
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^mk_[A-Za-z0-9_-]{20,}$/);
    const r = await sb.get(DAILY, key);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { data: unknown[] }).data).toHaveLength(2);
    expect((await (await sb.get("/api/v1/account/my", key)).json()).identity_id).toBe(FULL_ACCESS_IDENTITY);
  });

  it("lists keys with id, identity, hint and dates but never a key or its digest", async () => {
    const created = await json<CreatedKey>("keys", "create", "--identity", String(FULL_ACCESS_IDENTITY));
    const digest = createHash("sha256").update(created.key).digest("hex");
    const listing = await json<Record<string, unknown>[]>("keys", "list", "--identity", String(FULL_ACCESS_IDENTITY));
    const mine = listing.find((k) => k.id === created.id)!;
    expect(Object.keys(mine).sort()).toEqual(["created_at", "expires_at", "hint", "id", "identity_id", "revoked_at"]);
    expect(mine).toMatchObject({
      identity_id: FULL_ACCESS_IDENTITY,
      hint: `${created.key.slice(0, 4)}...${created.key.slice(-2)}`,
      expires_at: null,
      revoked_at: null,
    });
    for (const args of [["keys", "list"], ["--json", "keys", "list"], ["keys", "list", "--identity", "1"]]) {
      const out = await run(...args);
      expect(out.code).toBe(0);
      expect(out.stdout).not.toContain(created.key);
      expect(out.stdout).not.toContain(digest);
      expect(out.stdout).not.toContain("demo-full-access");
    }
    expect(listing.every((k) => k.identity_id === FULL_ACCESS_IDENTITY)).toBe(true);
  });

  it("revokes a key, after which the service answers 401 Invalid API key", async () => {
    const created = await json<CreatedKey>("keys", "create", "--identity", String(FULL_ACCESS_IDENTITY));
    expect((await sb.get(DAILY, created.key)).status).toBe(200);
    const revoked = await run("keys", "revoke", String(created.id));
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^Revoked key ${created.id} `));
    const r = await sb.get(DAILY, created.key);
    expect(r.status).toBe(401);
    expect(await detail(r)).toBe("Invalid API key");
    const listed = (await json<{ id: number; revoked_at: string | null }[]>("keys", "list")).find((k) => k.id === created.id)!;
    expect(listed.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("creates a key with an expiry, which the service answers 410 once it has passed", async () => {
    const future = await json<CreatedKey>("keys", "create", "--identity", String(FULL_ACCESS_IDENTITY), "--expires", "2999-01-01");
    expect(future.expires_at).toBe("2999-01-01T00:00:00.000Z");
    expect((await sb.get(DAILY, future.key)).status).toBe(200);
    const past = await json<CreatedKey>(
      "keys",
      "create",
      "--identity",
      String(RESTRICTED_IDENTITY),
      "--expires",
      "2020-06-01T12:00:00+02:00",
    );
    expect(past.expires_at).toBe("2020-06-01T10:00:00.000Z");
    const r = await sb.get("/api/v1/account/my", past.key);
    expect(r.status).toBe(410);
    expect(await detail(r)).toBe("The API key access has expired");
  });

  it("refuses a key past max_active_api_keys with the service's 409 message and exit code 1", async () => {
    const team = await json<{ team_id: number }>("teams", "create", "--name", "Two keys team", "--per-minute", "100", "--monthly", "1000");
    const identity = await json<{ identity_id: number; max_active_api_keys: number }>(
      "identities",
      "create",
      "--team",
      String(team.team_id),
      "--name",
      "Two keys",
      "--max-keys",
      "2",
    );
    expect(identity.max_active_api_keys).toBe(2);
    const id = String(identity.identity_id);
    const first = await json<CreatedKey>("keys", "create", "--identity", id);
    await json<CreatedKey>("keys", "create", "--identity", id);
    const third = await run("keys", "create", "--identity", id);
    expect(third.code).toBe(1);
    expect(third.stderr.trim()).toBe("409 Conflict: An account cannot have more than 2 active API keys");
    expect(third.stdout).toBe("");
    // A revoked key no longer counts, so there is room again.
    await json("keys", "revoke", String(first.id));
    expect((await run("keys", "create", "--identity", id)).code).toBe(0);
    // The demo accounts allow 5: the restricted one holds its demo key and one expired key.
    const restricted = String(RESTRICTED_IDENTITY);
    for (let i = 0; i < 4; i++) expect((await run("keys", "create", "--identity", restricted)).code).toBe(0);
    const sixth = await run("keys", "create", "--identity", restricted);
    expect(sixth.stderr.trim()).toBe("409 Conflict: An account cannot have more than 5 active API keys");
    expect(sixth.code).toBe(1);
  });

  it("deactivates an account (410 on every key) and reactivates it (200 again)", async () => {
    const deactivated = await run("account", "deactivate", String(FULL_ACCESS_IDENTITY));
    try {
      expect(deactivated.code).toBe(0);
      expect(deactivated.stdout.trim()).toBe("Identity 1 'Demo full access' is deactivated");
      for (const path of [DAILY, "/api/v1/account/my"]) {
        const r = await sb.get(path, "demo-full-access");
        expect(r.status).toBe(410);
        expect(await detail(r)).toBe("The account is deactivated");
      }
      const listed = (await json<{ identity_id: number; deactivated: boolean }[]>("identities")).find((i) =>
        i.identity_id === FULL_ACCESS_IDENTITY
      );
      expect(listed?.deactivated).toBe(true);
    } finally {
      const reactivated = await run("account", "reactivate", String(FULL_ACCESS_IDENTITY));
      expect(reactivated.code).toBe(0);
      expect(reactivated.stdout.trim()).toBe("Identity 1 'Demo full access' is active");
    }
    expect((await sb.get(DAILY, "demo-full-access")).status).toBe(200);
    // The demo account created deactivated can be brought back the same way.
    expect((await sb.get("/api/v1/account/my", "demo-deactivated")).status).toBe(410);
    const demo = (await json<{ identity_id: number; name: string }[]>("identities")).find((i) => i.name === "Demo deactivated")!;
    await json("account", "reactivate", String(demo.identity_id));
    expect((await sb.get("/api/v1/account/my", "demo-deactivated")).status).toBe(200);
  });

  it("turns maintenance on for the running sandbox (503 on every API path) and off again", async () => {
    const on = await run("set", "maintenance", "on");
    try {
      expect(on.code).toBe(0);
      expect(on.stdout.trim()).toBe("maintenance: off -> on");
      for (const path of [DAILY, "/api/v1/account/my", "/api/v1/meta/datasets"]) {
        const r = await sb.get(path, "demo-full-access");
        expect(r.status).toBe(503);
        expect(r.headers.get("Retry-After")).toMatch(/^\d+$/);
        expect(await detail(r)).toBe("Service unavailable");
      }
      expect((await json<{ maintenance: boolean }>("settings")).maintenance).toBe(true);
    } finally {
      expect((await run("set", "maintenance", "off")).stdout.trim()).toBe("maintenance: on -> off");
    }
    expect((await sb.get(DAILY, "demo-full-access")).status).toBe(200);
  });

  it("switches unentitled datasets from 404 to 403 with the spec's text, and back", async () => {
    // demo-restricted may reach eq-daily-ohlc and eq-taq-1min, not the tick data.
    const tick = "/api/v1/data/us-equity/eq-taq/2023-11-21/AAPL";
    const before = await sb.get(tick, "demo-restricted");
    expect(before.status).toBe(404);
    expect(await detail(before)).toBe("A dataset with the id 'eq-taq' is not found");
    await json("set", "unentitled-status", "403");
    try {
      for (const path of [tick, "/api/v1/meta/datasets/eq-taq/columns"]) {
        const r = await sb.get(path, "demo-restricted");
        expect(r.status).toBe(403);
        expect(await detail(r)).toBe("This identity does not have access to dataset eq-taq");
      }
      // A dataset that does not exist at all stays 404: 403 only says "not yours".
      expect((await sb.get("/api/v1/meta/datasets/no-such-set/columns", "demo-restricted")).status).toBe(404);
    } finally {
      await json("set", "unentitled-status", "404");
    }
    expect((await sb.get(tick, "demo-restricted")).status).toBe(404);
  });

  it("shows and changes the other settings", async () => {
    await json("set", "query-budget-ms", "12345");
    await json("set", "query-memory-mb", "64");
    await json("set", "trusted-proxies", "127.0.0.1/32,::1/128");
    await json("set", "faults", "7,0,0,0,0");
    try {
      expect(await json("settings")).toEqual({
        maintenance: false,
        unentitledStatus: 404,
        queryBudgetMs: 12345,
        queryMemoryMb: 64,
        trustedProxies: ["127.0.0.1/32", "::1/128"],
        faults: { seed: 7, rate503: 0, rate504: 0, rate429: 0, rateDrop: 0 },
      });
      const text = await run("settings");
      expect(text.stdout).toMatch(/^trusted-proxies\s+127\.0\.0\.1\/32,::1\/128$/m);
      expect(text.stdout).toMatch(/^faults\s+7,0,0,0,0$/m);
      expect(text.stdout).toMatch(/^query-memory-mb\s+64$/m);
    } finally {
      await json("set", "query-budget-ms", "30000");
      await json("set", "query-memory-mb", "256");
      await json("set", "trusted-proxies", "none");
      await json("set", "faults", "off");
    }
    expect(await json("settings")).toMatchObject({ queryBudgetMs: 30000, queryMemoryMb: 256, trustedProxies: [], faults: null });
  });

  it("reports the same usage and limits as the quotas endpoint", async () => {
    await roomInMinute(10);
    for (let i = 0; i < 3; i++) expect((await sb.get(DAILY, "demo-full-access")).status).toBe(200);
    const endpoint = await (await sb.get("/api/v1/account/my/quotas", "demo-full-access")).json();
    const [team] = await json<{ team_id: number; identity_ids: number[]; quotas_usage: unknown; quotas_limit: unknown }[]>(
      "usage",
      "--identity",
      "1",
    );
    expect({ quotas_usage: team.quotas_usage, quotas_limit: team.quotas_limit }).toEqual(endpoint);
    expect(endpoint.quotas_usage.per_minute_requests).toBeGreaterThanOrEqual(3);
    expect(team.identity_ids).toEqual([FULL_ACCESS_IDENTITY]);
    const all = await json<{ team_id: number }[]>("usage");
    expect(all.map((t) => t.team_id)).toContain(team.team_id);
    const text = await run("usage", "--identity", "1");
    expect(text.stdout).toMatch(new RegExp(`^per_minute_requests\\s+${endpoint.quotas_usage.per_minute_requests}\\s+100000$`, "m"));
    expect(text.stdout).toMatch(new RegExp(`^monthly_data_returned\\s+${endpoint.quotas_usage.monthly_data_returned}\\s+${2 ** 40}$`, "m"));
  });

  it("refuses bad input with a message naming the bad value and exit code 2", async () => {
    const cases: [string[], string][] = [
      [["keys", "create", "--identity", "abc"], "--identity 'abc' is not a positive integer"],
      [["keys", "create"], "Option --identity is required: keys create --identity N [--expires ISO]"],
      [
        ["keys", "create", "--identity", "1", "--expires", "2030-02-31"],
        "--expires '2030-02-31' is not an ISO date or date-time with a zone",
      ],
      [["keys", "create", "--identity", "1", "--expires", "2030-01-01T10:00"], "--expires '2030-01-01T10:00' is not an ISO date"],
      [["keys", "revoke", "x1"], "Key id 'x1' is not a positive integer"],
      [["keys", "revoke"], "'keys revoke' takes <id>"],
      [["keys", "list", "--expires", "2030-01-01"], "Option --expires does not apply to 'keys list'"],
      [["account", "deactivate", "-3"], "Unknown option '-3'"],
      [["account", "freeze", "1"], "Unknown command 'account freeze 1'"],
      [["set", "maintenance", "maybe"], "Setting maintenance cannot be 'maybe': use on or off"],
      [["set", "unentitled-status", "401"], "Setting unentitled-status cannot be '401': use 403 or 404"],
      [["set", "query-budget-ms", "-5"], "Unknown option '-5'"],
      [["set", "query-budget-ms", "0"], "Setting query-budget-ms cannot be '0'"],
      [["set", "query-memory-mb", "lots"], "Setting query-memory-mb cannot be 'lots': use a positive whole number of megabytes"],
      [["set", "trusted-proxies", "127.0.0.1/32,10.0.0.0/"], "Setting trusted-proxies cannot be '10.0.0.0/'"],
      [["set", "faults", "1,0.5,0.6,0,0"], "Setting faults cannot be '1,0.5,0.6,0,0'"],
      [["set", "faults", "on"], "Setting faults cannot be 'on'"],
      [
        ["set", "colour", "blue"],
        "Unknown setting 'colour': known settings are maintenance, unentitled-status, query-budget-ms, query-memory-mb, trusted-proxies, faults",
      ],
      [["identities", "create", "--team", "1", "--name", "X", "--subnet", "10.0.0.0/33"], "--subnet '10.0.0.0/33' is not a CIDR block"],
      [["identities", "create", "--team", "1", "--name", "X", "--datasets", "eq-foo"], "--datasets 'eq-foo' is not a dataset"],
      [["teams", "create", "--name", "T", "--per-minute", "ten", "--monthly", "5"], "--per-minute 'ten' is not a non-negative integer"],
    ];
    for (const [args, message] of cases) {
      const out = await run(...args);
      expect(out.code, args.join(" ")).toBe(2);
      expect(out.stderr, args.join(" ")).toContain(message);
      expect(out.stdout, args.join(" ")).toBe("");
    }
    // Nothing was changed by the refused commands.
    expect(await json("settings")).toMatchObject({ maintenance: false, unentitledStatus: 404, queryBudgetMs: 30000, faults: null });
  });

  it("names an identity or key that does not exist with a 404 and exit code 1", async () => {
    for (
      const [args, message] of [
        [["keys", "create", "--identity", "999"], "404 Not Found: Identity 999 is not found"],
        [["keys", "revoke", "999"], "404 Not Found: API key 999 is not found"],
        [["account", "deactivate", "999"], "404 Not Found: Identity 999 is not found"],
        [["usage", "--identity", "999"], "404 Not Found: Identity 999 is not found"],
        [["identities", "create", "--team", "999", "--name", "X"], "404 Not Found: Team 999 is not found"],
      ] as [string[], string][]
    ) {
      const out = await run(...args);
      expect(out.code, args.join(" ")).toBe(1);
      expect(out.stderr.trim()).toBe(message);
    }
  });

  it("refuses a state file that does not exist instead of creating an empty one", async () => {
    const missing = `${sb.statePath}.typo`;
    const out = await admin(missing, "identities");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`State file '${missing}' does not exist`);
    expect(existsSync(missing)).toBe(false);
  });
  it("as a child process (npm run sandbox-admin): prints the answer and exits 0, 1 or 2", async () => {
    const created = await adminProcess(sb.statePath, "keys", "create", "--identity", String(FULL_ACCESS_IDENTITY));
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^mk_[A-Za-z0-9_-]{20,}$/);
    expect((await sb.get(DAILY, key)).status).toBe(200);
    const missing = await adminProcess(sb.statePath, "keys", "revoke", "999");
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr.trim()).toBe("404 Not Found: API key 999 is not found");
    const bad = await adminProcess(sb.statePath, "set", "maintenance", "maybe");
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toContain("Setting maintenance cannot be 'maybe': use on or off");
    const usage = await adminProcess(sb.statePath);
    expect(usage.code).toBe(2);
    expect(usage.stdout).toMatch(/^usage: npm run sandbox-admin/);
  });
});
