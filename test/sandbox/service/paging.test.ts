/**
 * Paging, against the sandbox's app in-process: walking `next_offset` to its end returns every
 * row of a query exactly once, in the catalog's key order, in every format and for page sizes
 * that divide the total and that do not; each page carries the spec's pagination object, the
 * X-Pagination-* headers and a Link to the next page. Expected rows come straight from the
 * Parquet files through Polars.
 *
 * limit=0, as the spec implies: an empty page whose next_offset is "previous offset plus page
 * size", i.e. the same offset while rows remain (null once none do). Such a next_offset does
 * not advance, so a walker must refuse it rather than loop; ours does.
 */
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Dataset, datasetByTextId } from "../../../sandbox/market/catalog.ts";
import { type ExpectedRows, expectedRows } from "./support/expectedRows.ts";
import { expectPage, expectSameRows, expectSameRowTexts } from "./support/pagingExpect.ts";
import { fetchPage, type Page, type PageRequest, walkLinks, walkPages } from "./support/pagingWalk.ts";
import { type Format, FORMATS } from "./support/pagingWire.ts";
import { readDataset } from "./support/polarsExpected.ts";
import { type AppSandbox, openAppSandbox } from "./support/appSandbox.ts";

const dir = inject("tinyMarketDir");
const [minute, daily, ticks] = ["eq-taq-1min", "eq-daily-ohlc", "eq-taq"].map(datasetByTextId);
const DEFAULT_LIMIT = 10_000;

interface Subject {
  name: string;
  dataset: Dataset;
  path: string;
  params: Record<string, string>;
  expected: ExpectedRows;
  /** Page sizes to walk with; undefined leaves `limit` out. */
  limits: (number | undefined)[];
  /** A walk that starts off the page grid: [start offset, page size]. */
  offGrid: [number, number];
}

const minuteRows = (aggregation: string) =>
  expectedRows(readDataset(dir, minute, `aggregation_logic=${aggregation}`).filter(pl.col("Ticker").eq(pl.lit("AAPL"))), minute);
const tickRows = expectedRows(readDataset(dir, ticks, "TradeDate=2023-11-21/Ticker=CVX.parquet"), ticks);

// AAPL has 960 bars on each of the 6 trading days: 960 divides the total, 1000 and 2500 do not.
// Each walk of these reads every bar, so each paging rule is walked once per format: the core
// bars with a page size that divides the total, one that does not, the default and one larger
// than the total; the no_finra_trf bars with one that does not (and at 1000 by Link and by
// next_offset, below), which shows the aggregation holds from page to page.
const SUBJECTS: Subject[] = [
  ...([["core", [960, 2500, undefined, 100_000]], ["no_finra_trf", [2500]]] as const).map(([aggregation, limits]) => ({
    name: `eq-taq-1min AAPL (${aggregation})`,
    dataset: minute,
    path: "/api/v1/data/us-equity/eq-taq-1min/AAPL",
    params: { aggregation_logic: aggregation },
    expected: minuteRows(aggregation),
    limits: [...limits],
    offGrid: [3, 1000] as [number, number],
  })),
  // One day is one file: the engine serves such walks from its cache of decoded files.
  {
    name: "eq-taq-1min AAPL on 2023-11-21 (core)",
    dataset: minute,
    path: "/api/v1/data/us-equity/eq-taq-1min/AAPL",
    params: { TradeDate: "2023-11-21" },
    expected: expectedRows(
      readDataset(dir, minute, "aggregation_logic=core/TradeDate=2023-11-21.parquet").filter(pl.col("Ticker").eq(pl.lit("AAPL"))),
      minute,
    ),
    limits: [100, 333, 960],
    offGrid: [3, 100],
  },
  {
    name: "eq-daily-ohlc",
    dataset: daily,
    path: "/api/v1/data/us-equity/eq-daily-ohlc",
    params: {},
    expected: expectedRows(readDataset(dir, daily), daily),
    limits: [1, 7, 25, undefined],
    offGrid: [3, 7],
  },
  // CVX on 2023-11-21 has more ticks than the default limit, which does not divide them.
  {
    name: "eq-taq CVX 2023-11-21",
    dataset: ticks,
    path: "/api/v1/data/us-equity/eq-taq/2023-11-21/CVX",
    params: {},
    expected: tickRows,
    limits: [4096, tickRows.height, undefined, 100_000],
    offGrid: [5, 4096],
  },
];

const DAILY = SUBJECTS.find((s) => s.dataset === daily)!;
const columnsOf = (dataset: Dataset) => dataset.columns.map((c) => c.name);

/** Checks every page of a walk that started at `start` with page size `limit`. */
function expectWalk(pages: Page[], subject: Subject, format: Format, limit: number, start = 0): void {
  const total = subject.expected.height;
  expect(pages.length, "pages").toBe(Math.max(1, Math.ceil((total - start) / limit)));
  pages.forEach((page, k) => {
    const offset = start + k * limit;
    const last = k === pages.length - 1;
    expectPage(page, {
      format,
      offset,
      limit,
      rows: Math.max(0, Math.min(limit, total - offset)),
      nextOffset: last ? null : offset + limit,
      columns: columnsOf(subject.dataset),
    });
  });
  expectSameRows(pages.map((p) => p.table), subject.expected, subject.name, start);
}

describe("paging through a query", () => {
  let sb: AppSandbox;
  const request = (subject: Subject, format: Format, params: Record<string, string> = {}): PageRequest => ({
    sb,
    dataset: subject.dataset,
    path: subject.path,
    params: { ...subject.params, ...params },
    format,
  });
  beforeAll(async () => {
    sb = await openAppSandbox();
  });
  afterAll(() => sb.stop());

  it("compares against datasets whose keys are unique, so every row can be counted once", () => {
    for (const subject of SUBJECTS) {
      expect(subject.expected.height, subject.name).toBeGreaterThan(0);
      // Unique keys make unique rows; Polars counts them without writing every row out as text.
      const keys = subject.expected.frame.select(...subject.dataset.key);
      expect(keys.unique().height, subject.name).toBe(subject.expected.height);
    }
    expect(tickRows.height).toBeGreaterThan(DEFAULT_LIMIT);
    expect(tickRows.height % DEFAULT_LIMIT).not.toBe(0);
  });

  for (const subject of SUBJECTS) {
    describe(subject.name, () => {
      for (const format of FORMATS) {
        for (const limit of subject.limits) {
          it(`walks every row exactly once in key order as ${format} with limit ${limit ?? "left out (10000)"}`, async () => {
            const pages = await walkPages(request(subject, format, limit === undefined ? {} : { limit: String(limit) }));
            expectWalk(pages, subject, format, limit ?? DEFAULT_LIMIT);
          });
        }
        it(`walks from an offset that is not a multiple of the page size as ${format}`, async () => {
          const [start, limit] = subject.offGrid;
          const pages = await walkPages(request(subject, format, { limit: String(limit) }), start);
          expectWalk(pages, subject, format, limit, start);
        });
      }
    });
  }

  it("pages the core minute bars when aggregation_logic is left out", async () => {
    const subject = { ...SUBJECTS[0], params: {} };
    const pages = await walkPages(request(subject, "json", { limit: "2500" }));
    expectWalk(pages, subject, "json", 2500);
  });

  for (const format of FORMATS) {
    it(`reaches the same pages through the Link header as through next_offset as ${format}`, async () => {
      const r = request(SUBJECTS[1], format, { limit: "1000" });
      const byLink = await walkLinks(r);
      expectWalk(byLink, SUBJECTS[1], format, 1000);
      const byOffset = await walkPages(r);
      // Equal bodies read to equal rows; only bodies that differ need their rows compared.
      const texts = (pages: Page[]) => pages.map((p) => p.table.text);
      if (JSON.stringify(texts(byLink)) !== JSON.stringify(texts(byOffset))) {
        expect(byLink.map((p) => p.table.height)).toEqual(byOffset.map((p) => p.table.height));
        expectSameRowTexts(byLink.flatMap((p) => p.table.rows), byOffset.flatMap((p) => p.table.rows), "by Link");
      }
    });

    it(`answers limit=0 with an empty page whose next_offset stays put, which the walker refuses to follow, as ${format}`, async () => {
      const subject = DAILY;
      const page = await fetchPage(request(subject, format, { limit: "0" }));
      expectPage(page, { format, offset: 0, limit: 0, rows: 0, nextOffset: 0, columns: columnsOf(daily) });
      const later = await fetchPage(request(subject, format, { limit: "0" }), 40);
      expectPage(later, { format, offset: 40, limit: 0, rows: 0, nextOffset: 40, columns: columnsOf(daily) });
      await expect(walkPages(request(subject, format, { limit: "0" }))).rejects.toThrow(/does not advance past offset 0/);
    });

    it(`answers limit=0 at the end of the rows with a null next_offset as ${format}`, async () => {
      const subject = DAILY;
      const total = subject.expected.height;
      const pages = await walkPages(request(subject, format, { limit: "0" }), total);
      expect(pages).toHaveLength(1);
      expectPage(pages[0], { format, offset: total, limit: 0, rows: 0, nextOffset: null, columns: columnsOf(daily) });
    });

    it(`answers an offset at or past the end with an empty last page as ${format}`, async () => {
      const subject = DAILY;
      for (const offset of [subject.expected.height, subject.expected.height + 100]) {
        const page = await fetchPage(request(subject, format, { limit: "10" }), offset);
        expectPage(page, { format, offset, limit: 10, rows: 0, nextOffset: null, columns: columnsOf(daily) });
      }
    });

    it(`ends a walk whose last page is exactly full without an extra empty page as ${format}`, async () => {
      const subject = DAILY;
      const last = await fetchPage(request(subject, format, { limit: "25" }), 50);
      expectPage(last, { format, offset: 50, limit: 25, rows: 25, nextOffset: null, columns: columnsOf(daily) });
      expectSameRows(last.table, subject.expected, "last page", 50);
    });
  }
});
