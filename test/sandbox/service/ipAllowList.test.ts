/**
 * The IP allow-list over real HTTP. demo-ip-restricted may call from 10.0.0.0/8 and fd00::/8
 * only; tests run on loopback, so the socket address is refused, and X-Forwarded-For decides
 * only when the socket is a trusted proxy (`--trusted-proxy`, or `set trusted-proxies` with
 * the admin command on a running sandbox).
 */
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "./support/admin.ts";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";
import { denoPath } from "../../../scripts/paths.mjs";
import process from "node:process";

const PATHS = ["/api/v1/account/my", "/api/v1/data/us-equity/eq-daily-ohlc?Ticker=AAPL&limit=1"];
const FORBIDDEN = { detail: "Forbidden: IP address not allowed" };

async function expectRefused(sb: TestSandbox, headers: Record<string, string> = {}) {
  for (const path of PATHS) {
    const r = await sb.get(path, "demo-ip-restricted", headers);
    expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
    expect(await r.json()).toEqual(FORBIDDEN);
  }
}

async function expectAllowed(sb: TestSandbox, headers: Record<string, string> = {}) {
  for (const path of PATHS) {
    const r = await sb.get(path, "demo-ip-restricted", headers);
    expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(200);
    await r.arrayBuffer();
  }
}

// One sandbox on 127.0.0.1 for both: first with no proxy trusted, then with the admin command
// trusting 127.0.0.1/32 as a running sandbox is told to (settingsPersistence.test.ts checks that
// `--trusted-proxy` on the command line trusts it too).
describe("the IP allow-list on 127.0.0.1", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.stop());

  describe("without trusted proxies", () => {
    it("refuses demo-ip-restricted calling from 127.0.0.1 with 403 Forbidden: IP address not allowed", async () => {
      await expectRefused(sb);
    });

    it("ignores X-Forwarded-For when the socket is not a trusted proxy", async () => {
      await expectRefused(sb, { "X-Forwarded-For": "10.1.2.3" });
      await expectRefused(sb, { "X-Forwarded-For": "fd00::1" });
      await expectRefused(sb, { "X-Forwarded-For": "127.0.0.1, 10.1.2.3" });
    });

    it("lets an identity without subnets call from anywhere", async () => {
      expect((await sb.get(PATHS[1], "demo-full-access")).status).toBe(200);
      expect((await sb.get(PATHS[1], "demo-full-access", { "X-Forwarded-For": "192.168.1.1" })).status).toBe(200);
    });

    it("checks the key before the address: a bad key is 401 whatever the address", async () => {
      const r = await sb.get(PATHS[0], "not-a-real-key-at-all");
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ detail: "Invalid API key" });
    });

    it("starts believing X-Forwarded-For as soon as the admin command trusts the proxy, and stops again", async () => {
      expect((await admin(sb.statePath, "set", "trusted-proxies", "127.0.0.1/32")).code).toBe(0);
      try {
        await expectAllowed(sb, { "X-Forwarded-For": "10.1.2.3" });
      } finally {
        expect((await admin(sb.statePath, "set", "trusted-proxies", "none")).code).toBe(0);
      }
      await expectRefused(sb, { "X-Forwarded-For": "10.1.2.3" });
    });
  });

  describe("behind a trusted proxy on 127.0.0.1", () => {
    beforeAll(async () => {
      expect((await admin(sb.statePath, "set", "trusted-proxies", "127.0.0.1/32")).code).toBe(0);
    });
    afterAll(async () => {
      expect((await admin(sb.statePath, "set", "trusted-proxies", "none")).code).toBe(0);
    });

    it("believes the client address the proxy forwards, IPv4 or IPv6", async () => {
      await expectAllowed(sb, { "X-Forwarded-For": "10.1.2.3" });
      await expectAllowed(sb, { "X-Forwarded-For": "fd00::1" });
      await expectAllowed(sb, { "X-Forwarded-For": "::ffff:10.9.8.7" });
    });

    it("refuses a forwarded address outside the identity's subnets", async () => {
      await expectRefused(sb, { "X-Forwarded-For": "192.168.1.1" });
      await expectRefused(sb, { "X-Forwarded-For": "2001:db8::1" });
    });

    it("refuses the proxy's own address when it forwards none", async () => {
      await expectRefused(sb);
    });

    it("sees through a spoofed chain: only the hop the proxy appended counts", async () => {
      // A client at 192.168.1.1 claims 10.1.2.3; the proxy appends the address it saw.
      await expectRefused(sb, { "X-Forwarded-For": "10.1.2.3, 192.168.1.1" });
      // A client at 10.1.2.3 whose own claim is nonsense is still judged by its real address.
      await expectAllowed(sb, { "X-Forwarded-For": "192.168.1.1, 10.1.2.3" });
      // Hops that are themselves trusted proxies are skipped.
      await expectAllowed(sb, { "X-Forwarded-For": "10.1.2.3, 127.0.0.1" });
    });

    it("falls back to the socket's address when the forwarded hop is not an address", async () => {
      await expectRefused(sb, { "X-Forwarded-For": "10.1.2.3, unknown" });
      await expectRefused(sb, { "X-Forwarded-For": "10.1.2" });
    });
  });
});

describe("the sandbox listening on ::1 (--host)", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--host", "::1"] });
  });
  afterAll(() => sb.stop());

  it("serves demo-full-access over [::1]", async () => {
    expect(sb.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
    const r = await sb.get("/api/v1/account/my", "demo-full-access");
    expect(r.status).toBe(200);
    expect((await r.json()).name).toBe("Demo full access");
    expect((await sb.get(PATHS[1], "demo-full-access")).status).toBe(200);
  });

  it("refuses demo-ip-restricted calling from ::1, outside fd00::/8", async () => {
    await expectRefused(sb);
    await expectRefused(sb, { "X-Forwarded-For": "fd00::1" });
  });

  it("believes an IPv6 proxy once ::1/128 is trusted", async () => {
    expect((await admin(sb.statePath, "set", "trusted-proxies", "::1/128")).code).toBe(0);
    await expectAllowed(sb, { "X-Forwarded-For": "fd00::1" });
    await expectAllowed(sb, { "X-Forwarded-For": "10.1.2.3" });
    await expectRefused(sb, { "X-Forwarded-For": "fe80::1" });
    await expectRefused(sb, { "X-Forwarded-For": "fd00::1, 192.168.1.1" });
  });
});

describe("the --host option", () => {
  it("refuses a host that is not an IP address, naming it, with exit code 2", async () => {
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(denoPath(), ["run", "-A", "sandbox/service/cli.ts", "--host", "localhost", "--port", "0"], {
        env: { ...process.env, NO_COLOR: "1" },
      }, (error, _stdout, stderr) => {
        resolve({ code: error ? (error.code as number) : 0, stderr });
      });
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--host 'localhost' is not an IPv4 or IPv6 address such as 127.0.0.1 or ::1");
  });
});
