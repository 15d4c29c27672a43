/**
 * The monthly returned-bytes quota is met before a page is served (issue 40): a page that
 * would take the team past it is cut to the rows that fit (its next offset follows them, so a
 * client that pages on misses nothing), and refused 429 when not even one row fits; the bytes
 * counted never pass the limit, in every format and under concurrent requests. In-process.
 */
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";
import { adminJson } from "./support/admin.ts";

const PAGE = "/api/v1/data/us-equity/eq-taq-1min/AAPL?limit=2000";
const FULL = "demo-full-access";

/** A team of one identity with one key whose monthly returned bytes are limited to `bytes`. */
async function keyReturning(sb: AppSandbox, name: string, bytes: number): Promise<string> {
  const { team_id } = await adminJson<{ team_id: number }>(
    sb.statePath,
    "teams",
    "create",
    "--name",
    name,
    "--per-minute",
    "1000",
    "--monthly",
    "1000",
    "--returned-bytes",
    String(bytes),
  );
  const { identity_id } = await adminJson<{ identity_id: number }>(
    sb.statePath,
    "identities",
    "create",
    "--team",
    String(team_id),
    "--name",
    name,
  );
  return (await adminJson<{ key: string }>(sb.statePath, "keys", "create", "--identity", String(identity_id))).key;
}

const returned = async (sb: AppSandbox, key: string) =>
  (await (await sb.get("/api/v1/account/my/quotas", key)).json()).quotas_usage.monthly_data_returned as number;

/** A CSV body's lines after the header. */
const rowsOf = (csv: string) => csv.split("\n").slice(1).filter((l) => l !== "");

describe("the monthly returned-bytes quota, met before a page is served", () => {
  let sb: AppSandbox;
  beforeAll(async () => {
    sb = await openAppSandbox();
  });
  afterAll(() => sb.stop());

  it("cuts CSV pages to the rows that fit, following on from each other, until not one more row fits: 429", async () => {
    const whole = await (await sb.get(`${PAGE}&response_format=csv`, FULL)).text();
    const limit = Math.floor(new TextEncoder().encode(whole).length / 3);
    const key = await keyReturning(sb, "a third of a page", limit);
    const rows: string[] = [];
    let bytes = 0, last: Response;
    // Page on from each next offset, as a client does, until the quota refuses.
    for (;;) {
      last = await sb.get(`${PAGE}&response_format=csv&offset=${rows.length}`, key);
      if (last.status !== 200) break;
      const body = await last.text();
      bytes += new TextEncoder().encode(body).length;
      const page = rowsOf(body);
      expect(page.length).toBeGreaterThan(0);
      expect(page.length).toBeLessThan(2000);
      rows.push(...page);
      expect(last.headers.get("X-Pagination-Next-Offset")).toBe(String(rows.length));
      expect(last.headers.get("Link")).toMatch(new RegExp(`offset=${rows.length}>; rel="next"`));
      expect(await returned(sb, key)).toBe(bytes);
    }
    expect(bytes).toBeLessThanOrEqual(limit);
    // The page's first rows, none missed nor repeated, about a third of them.
    expect(rows).toEqual(rowsOf(whole).slice(0, rows.length));
    expect(rows.length).toBeGreaterThan(2000 / 3 - 200);
    expect(last.status).toBe(429);
    expect(last.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await last.json()).detail).toMatch(/^Monthly data returned limit exceeded: \d+\/\d+ bytes/);
    expect(await returned(sb, key)).toBe(bytes);
  });

  it("cuts a JSON page and a csv_gzip page the same way, within the limit", async () => {
    const key = await keyReturning(sb, "fifty kilobytes", 50_000);
    const json = await sb.get(`${PAGE}&response_format=json`, key);
    expect(json.status).toBe(200);
    const page = await json.json() as { data: unknown[]; pagination: { offset: number; limit: number; next_offset: number } };
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.length).toBeLessThan(2000);
    expect(page.pagination).toEqual({ offset: 0, limit: 2000, next_offset: page.data.length });
    const used = await returned(sb, key);
    expect(used).toBeLessThanOrEqual(50_000);
    const gz = await sb.get(`${PAGE}&response_format=csv_gzip&offset=${page.data.length}`, key);
    if (gz.status === 200) {
      const bytes = new Uint8Array(await gz.arrayBuffer());
      expect(rowsOf(gunzipSync(bytes).toString()).length).toBe(Number(gz.headers.get("X-Pagination-Next-Offset")) - page.data.length);
    } else expect(gz.status).toBe(429);
    expect(await returned(sb, key)).toBeLessThanOrEqual(50_000);
  });

  it("serves a page that fits whole as it is", async () => {
    const key = await keyReturning(sb, "roomy", 10 ** 9);
    const [mine, full] = [await sb.get(`${PAGE}&response_format=csv`, key), await sb.get(`${PAGE}&response_format=csv`, FULL)];
    expect(await mine.text()).toBe(await full.text());
    expect(mine.headers.get("X-Pagination-Next-Offset")).toBe(full.headers.get("X-Pagination-Next-Offset"));
  });

  it("never counts more than the limit under concurrent requests", async () => {
    const key = await keyReturning(sb, "concurrent", 100_000);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => sb.get(`${PAGE}&response_format=csv&offset=${i * 100}`, key)));
    const served = answers.filter((r) => r.status === 200);
    expect(served.length).toBeGreaterThan(0);
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const bytes = (await Promise.all(served.map(async (r) => new TextEncoder().encode(await r.text()).length))).reduce((a, b) => a + b, 0);
    expect(await returned(sb, key)).toBe(bytes);
    expect(bytes).toBeLessThanOrEqual(100_000);
  });
});
