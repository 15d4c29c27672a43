/**
 * The progress bar's rendering of synthetic events, as the workbench emits them (contract 3):
 * determinate once the total is known, indeterminate before, an amber waiting state for the
 * per-minute quota, tickers of a multi-ticker call, one bar over several fetches, and the same
 * on one terminal line.
 */
import { JSDOM } from "jsdom";
import { describe, expect, it, vi } from "vitest";
import { progressBar, type RichProgressEvent } from "../../kernel-helpers/mod.ts";
import { progressBundle, progressLine } from "../../kernel-helpers/progress/view.ts";

const event = (over: Partial<RichProgressEvent> = {}): RichProgressEvent => ({
  dataset: "eq-taq-1min",
  rows: 2_500,
  pages: 3,
  bytes: 3 * 2 ** 20,
  elapsedSeconds: 2,
  rowsPerSecond: 1_250,
  done: false,
  ...over,
});
const html = (e: RichProgressEvent) => new JSDOM(String(progressBundle(e)["text/html"])).window.document;
const barWidth = (e: RichProgressEvent) => (html(e).querySelector(".wb-progress > div > div") as HTMLElement).style.width;

describe("the notebook bar", () => {
  it("names csv_gzip when the workbench chose it, with the reason on hover; plain CSV goes unsaid", () => {
    const reason = "over this line plain CSV delivered 10.9 MB/s of CSV, csv_gzip 35.1 MB/s";
    const gzip = event({ wireFormat: { format: "csv_gzip", reason } });
    expect(progressBundle(gzip)["text/plain"]).toBe("eq-taq-1min: 2,500 rows, 3 pages, 3 MiB, 1,250 rows/s, csv_gzip");
    expect(html(gzip).querySelector(".wb-progress")!.getAttribute("title")).toBe(`csv_gzip: ${reason}`);
    const csv = event({ wireFormat: { format: "csv", reason: "the service is on this machine" } });
    expect(progressBundle(csv)["text/plain"]).toBe("eq-taq-1min: 2,500 rows, 3 pages, 3 MiB, 1,250 rows/s");
    expect(html(csv).querySelector(".wb-progress")!.getAttribute("title")).toBe("csv: the service is on this machine");
  });

  it("is determinate with percent, rows of the total, MiB, rate and ETA once the total is known", () => {
    const e = event({ expectedRows: 10_000, etaSeconds: 6 });
    expect(progressBundle(e)["text/plain"]).toBe("eq-taq-1min: 25%, 2,500 of 10,000 rows, 3 pages, 3 MiB, 1,250 rows/s, ETA 6 s");
    expect(barWidth(e)).toBe("25%");
    expect(html(e).querySelector(".wb-progress-determinate")).not.toBeNull();
  });

  it("takes the workbench's percent when it gives one, and a long ETA in minutes", () => {
    expect(progressBundle(event({ percent: 40, expectedRows: 10_000, etaSeconds: 125 }))["text/plain"]).toMatch(
      /^eq-taq-1min: 40%, .*, ETA 2 min 5 s$/,
    );
  });

  it("sweeps without a total, with no percent and no ETA", () => {
    const e = event();
    expect(progressBundle(e)["text/plain"]).toBe("eq-taq-1min: 2,500 rows, 3 pages, 3 MiB, 1,250 rows/s");
    expect(html(e).querySelector(".wb-progress-indeterminate")).not.toBeNull();
    expect(barWidth(e)).toBe("100%");
  });

  it("shows at once, before the first page: a sweeping bar that says it is starting", () => {
    const e = event({ rows: 0, pages: 0, bytes: 0, elapsedSeconds: 0, rowsPerSecond: 0 });
    expect(progressBundle(e)["text/plain"]).toBe("eq-taq-1min: starting, waiting for the first page");
    expect(progressBundle({ ...e, tickers: { done: 0, total: 4 } })["text/plain"]).toBe(
      "eq-taq-1min: starting, 4 tickers, waiting for the first page",
    );
    expect(html(e).querySelector(".wb-progress-indeterminate")).not.toBeNull();
    expect(barWidth(e)).toBe("100%");
  });

  it("shows the wait for the per-minute quota, in amber, instead of an ETA", () => {
    const e = event({ expectedRows: 10_000, etaSeconds: 6, waiting: { seconds: 41.2, reason: "per-minute quota" } });
    expect(progressBundle(e)["text/plain"]).toBe(
      "eq-taq-1min: 25%, 2,500 of 10,000 rows, 3 pages, 3 MiB, 1,250 rows/s, waiting 42 s for the per-minute quota",
    );
    expect(html(e).querySelector(".wb-progress-waiting")).not.toBeNull();
  });

  it("counts the tickers of a multi-ticker call and turns green when done", () => {
    const e = event({ rows: 10_000, expectedRows: 10_000, tickers: { done: 4, total: 4 }, done: true, elapsedSeconds: 8 });
    expect(progressBundle(e)["text/plain"]).toBe(
      "eq-taq-1min: 100%, 10,000 of 10,000 rows, 4 of 4 tickers, 3 pages, 3 MiB, 1,250 rows/s, done in 8 s",
    );
    expect(html(e).querySelector(".wb-progress-done")).not.toBeNull();
  });
});

describe("a call that did not complete", () => {
  it("ends grey as interrupted, at the counts reached, without a percent of 100", () => {
    const e = event({ expectedRows: 10_000, tickers: { done: 1, total: 4 }, done: true, stopped: "interrupted", elapsedSeconds: 4 });
    expect(progressBundle(e)["text/plain"]).toBe(
      "eq-taq-1min: 25%, 2,500 of 10,000 rows, 1 of 4 tickers, 3 pages, 3 MiB, 1,250 rows/s, interrupted after 4 s",
    );
    expect(html(e).querySelector(".wb-progress-interrupted")).not.toBeNull();
    expect(barWidth(e)).toBe("25%");
    expect(progressLine(e)).toMatch(/^\[#####-+\] eq-taq-1min: 25%, .*, interrupted after 4 s$/);
  });

  it("ends red as failed, with an empty bar when no total was known", () => {
    const e = event({ done: true, stopped: "failed", elapsedSeconds: 1 });
    expect(progressBundle(e)["text/plain"]).toBe("eq-taq-1min: 2,500 rows, 3 pages, 3 MiB, 1,250 rows/s, failed after 1 s");
    expect(html(e).querySelector(".wb-progress-failed")).not.toBeNull();
    expect(barWidth(e)).toBe("0%");
  });
});

describe("the terminal line", () => {
  it("is the same status after a 20-cell bar, rewritten in place and ended by a newline when done", () => {
    expect(progressLine(event({ expectedRows: 10_000, etaSeconds: 6 }))).toBe(
      "[#####---------------] eq-taq-1min: 25%, 2,500 of 10,000 rows, 3 pages, 3 MiB, 1,250 rows/s, ETA 6 s",
    );
    const written: string[] = [];
    const bar = progressBar({ write: (t) => written.push(t) });
    bar(event());
    bar(event({ rows: 5_000, done: true }));
    expect(written[0]).toBe("\req-taq-1min: 2,500 rows, 3 pages, 3 MiB, 1,250 rows/s");
    expect(written[1]).toMatch(/^\r\[#{20}\] eq-taq-1min: 100%, 5,000 rows, .*, done in 2 s\n$/);
  });
});

describe("a quota wait", () => {
  it("counts down once a second until the next event", () => {
    vi.useFakeTimers();
    try {
      const written: string[] = [];
      const bar = progressBar({ write: (t) => written.push(t) });
      bar(event({ waiting: { seconds: 3, reason: "per-minute quota" } }));
      vi.advanceTimersByTime(1000);
      vi.advanceTimersByTime(1000);
      expect(written.map((w) => w.match(/waiting (\d+) s/)?.[1])).toEqual(["3", "2", "1"]);
      bar(event({ rows: 3_000 }));
      vi.advanceTimersByTime(5000);
      expect(written).toHaveLength(4); // the next event ended the countdown
      expect(written[3]).not.toContain("waiting");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("one bar over several fetches", () => {
  it("sums the parts' rows against the total and is done only when every part is", () => {
    const written: string[] = [];
    const bar = progressBar({ label: "eq-taq-1min, 2 tickers", parts: 2, expectedRows: 4_000, write: (t) => written.push(t) });
    const aapl = bar.part("AAPL"), msft = bar.part("MSFT");
    aapl(event({ rows: 1_000 }));
    msft(event({ rows: 1_000, waiting: { seconds: 30, reason: "per-minute quota" } }));
    aapl(event({ rows: 2_000, done: true }));
    msft(event({ rows: 2_000, done: true }));
    expect(written[1]).toMatch(
      /^\r\[#{10}-{10}\] eq-taq-1min, 2 tickers: 50%, 2,000 of 4,000 rows, 0 of 2 tickers, 6 pages, 6 MiB, .*waiting 30 s for the per-minute quota$/,
    );
    expect(written[2]).toMatch(/75%, 3,000 of 4,000 rows, 1 of 2 tickers/);
    expect(written[2]).not.toContain("done");
    expect(written[3]).toMatch(/100%, 4,000 of 4,000 rows, 2 of 2 tickers, .*, done in \d+ s\n$/);
  });
});
