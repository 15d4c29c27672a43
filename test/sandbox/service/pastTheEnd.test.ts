/**
 * Pages at and past the end of a result, against the sandbox's app in-process, as a property:
 * for every dataset, every response format, offsets around the row count (the last row, the
 * count, one past it, far past it, up to 2^32 - 1) and page sizes up to the cached-result
 * limit, a page holds exactly the rows of the whole result from its offset on, as many as its
 * limit allows: past the end, none (CSV and csv_gzip: the header alone; JSON:
 * `{"data":[],...}` with a null `next_offset`). Each case is asked twice: the first request
 * (nothing of its query written yet: each request filters by a value of its own, so its whole
 * result is new to the sandbox) and the repeated one (cut from the written result). One app,
 * so the repeat meets what the first request wrote. The expected rows come from the whole
 * result, asked in one page too large to be cached, once per query.
 */
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";
import { type Format, FORMATS } from "./support/pagingWire.ts";

const KEY = "demo-full-access";
/** Larger than the largest page cut from a cached whole result (RESULT_CACHE_MAX_LIMIT). */
const WHOLE = 100_000;
const LAST_OFFSET = 2 ** 32 - 1;
const RUNS = 30;

/** A query of each dataset; `fresh(n)` is a filter keeping every row whose value differs for each n. */
interface Case {
  name: string;
  path: string;
  fresh: (n: number) => string;
}

/** `Ticker` (or another text column) below `~n`: true of every ticker, a new filter for each n. */
const below = (column: string) => (n: number) => `${column}.lt=~${n}`;

const CASES: Case[] = [
  { name: "eq-taq-1min, one ticker-day", path: "/api/v1/data/us-equity/eq-taq-1min/MSFT?TradeDate=2023-11-22", fresh: below("Ticker") },
  { name: "eq-taq, one ticker-day", path: "/api/v1/data/us-equity/eq-taq/2023-11-21/JPM.PRC?", fresh: below("Ticker") },
  { name: "eq-daily-ohlc, one day", path: "/api/v1/data/us-equity/eq-daily-ohlc?TradeDate=2023-11-21", fresh: below("Ticker") },
  { name: "eq-daily-ohlc, every day (pages find their files)", path: "/api/v1/data/us-equity/eq-daily-ohlc?", fresh: below("Ticker") },
  { name: "eq-daily-ohlc, every day, sorted", path: "/api/v1/data/us-equity/eq-daily-ohlc?sort=-DailyVolume", fresh: below("Ticker") },
  { name: "opt-greeks-daily, one day", path: "/api/v1/data/us-equity-opt/opt-greeks-daily?TradeDate=2023-11-21", fresh: below("Ticker") },
  { name: "opt-open-interest, one day", path: "/api/v1/data/us-equity-opt/opt-open-interest?TradeDate=2023-11-21", fresh: below("Ticker") },
  { name: "opt-sec-master", path: "/api/v1/data/us-equity-opt-ref/opt-sec-master?", fresh: (n) => `ASID.gt=${-1 - n}` },
  { name: "occ-eq-spec-settl", path: "/api/v1/data/us-equity-opt-ref/occ-eq-spec-settl?", fresh: below("OptionTicker") },
  { name: "eq-lookup-files", path: "/api/v1/data/us-equity-ref/eq-lookup-files?", fresh: below("Ticker") },
];

const text = (bytes: ArrayBuffer, format: Format) =>
  new TextDecoder().decode(format === "csv_gzip" ? gunzipSync(new Uint8Array(bytes)) : new Uint8Array(bytes));

/** The CSV's header line and its row lines (each with its newline). */
function csvLines(csv: string): { header: string; rows: string[] } {
  const lines = csv.split(/(?<=\n)/);
  return { header: lines[0], rows: lines.slice(1) };
}

describe("pages at and past the end of a result", () => {
  let sb: AppSandbox;
  let fresh = 0;
  beforeAll(async () => {
    sb = await openAppSandbox();
  });
  afterAll(() => sb?.stop());

  /**
   * The whole result of a case, once per case: its fresh filters keep every row, so every
   * request of the case has the same result (were that not so, pages would not match it and
   * the test would fail, not pass).
   */
  const wholes = new Map<Case, Promise<{ rows: unknown[]; csv: { header: string; rows: string[] } }>>();
  const wholeResult = (subject: Case) => {
    if (!wholes.has(subject)) {
      wholes.set(
        subject,
        (async () => {
          const path = `${subject.path}&${subject.fresh(fresh++)}`;
          const json = await sb.get(`${path}&response_format=json&limit=${WHOLE}`, KEY);
          expect(json.status).toBe(200);
          const rows = (await json.json()).data as unknown[];
          const csv = csvLines(await (await sb.get(`${path}&response_format=csv&limit=${WHOLE}`, KEY)).text());
          expect(csv.rows).toHaveLength(rows.length);
          expect(rows.length, `${subject.name} has rows`).toBeGreaterThan(0);
          return { rows, csv };
        })(),
      );
    }
    return wholes.get(subject)!;
  };

  async function page(
    path: string,
    format: Format,
    offset: number,
    limit: number,
  ): Promise<{ status: number; next: string | null; body: string }> {
    const r = await sb.get(`${path}&response_format=${format}&offset=${offset}&limit=${limit}`, KEY);
    return { status: r.status, next: r.headers.get("X-Pagination-Next-Offset"), body: text(await r.arrayBuffer(), format) };
  }

  it("hold the rows from their offset on and none past the end, first and repeated, in every format", async () => {
    // Where the page starts: near the row count (count - 1, count, count + 1, a little past), or
    // anywhere past it up to 2^32 - 1 (resolved against each result's own count).
    const where = fc.oneof(
      fc.constantFrom(-1, 0, 1).map((plus) => ({ plus })),
      fc.integer({ min: 2, max: 5000 }).map((plus) => ({ plus })),
      fc.oneof(fc.integer({ min: 0, max: LAST_OFFSET }), fc.constantFrom(LAST_OFFSET - 1, LAST_OFFSET)).map((at) => ({ at })),
    );
    const cases = fc.record({
      subject: fc.constantFrom(...CASES),
      where,
      limit: fc.oneof(fc.constantFrom(0, 1, 1000), fc.integer({ min: 1, max: 1000 })),
    });
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ({ subject, where, limit }) => {
        for (const format of FORMATS) {
          // A filter of this request's own: its whole result is new to the sandbox.
          const path = `${subject.path}&${subject.fresh(fresh++)}`;
          const { rows, csv } = await wholeResult(subject);
          const offset = "plus" in where
            ? Math.max(0, rows.length + where.plus)
            : Math.min(LAST_OFFSET, Math.max(rows.length + 2, where.at));
          const next = rows.length > offset + limit ? offset + limit : null;
          for (const attempt of ["first", "repeated"]) {
            const what = `${subject.name} ${path} ${format} offset ${offset} limit ${limit} (${rows.length} rows), ${attempt} request`;
            const got = await page(path, format, offset, limit);
            expect(got.status, what).toBe(200);
            expect(got.next, what).toBe(next === null ? "" : String(next));
            if (format === "json") {
              let body: { data: unknown[]; pagination: unknown } | undefined;
              expect(() => (body = JSON.parse(got.body)), `${what}: ${got.body.slice(0, 200)}`).not.toThrow();
              expect(body!.data, what).toEqual(rows.slice(offset, offset + limit));
              expect(body!.pagination, what).toEqual({ offset, limit, next_offset: next });
            } else {
              expect(got.body, what).toBe(csv.header + csv.rows.slice(offset, offset + limit).join(""));
            }
            checked++;
          }
        }
      }),
      { numRuns: RUNS },
    );
    expect(checked).toBe(RUNS * FORMATS.length * 2);
  });
});
