/**
 * A download whose `columns` lacks the lake's partition columns (Ticker, TradeDate): they are
 * added and the result's warnings say so, where the download once failed after spending its
 * requests with Polars' 'unable to find column "TradeDate"'.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { withFullAccess } from "./support/fullAccess.ts";

const local = withFullAccess();
const scratch = mkdtempSync(join(tmpdir(), "download-columns-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `run` with console.warn captured. */
async function warned<T>(run: () => Promise<T>): Promise<{ value: T; said: string[] }> {
  const said: string[] = [];
  const warn = vi.spyOn(console, "warn").mockImplementation((m: unknown) => void said.push(String(m)));
  try {
    return { value: await run(), said };
  } finally {
    warn.mockRestore();
  }
}

describe("a download's columns without the partition columns", () => {
  it("per-ticker minute bars: Ticker and TradeDate added, said, and the lake holds the columns asked for with them", async () => {
    const range = { tickers: ["AAPL", "MSFT"], start: "2023-11-20", end: "2023-11-22" };
    const dir = join(scratch, "bars");
    const { value: result, said } = await warned(() =>
      local.wb.download("eq-taq-1min", { ...range, columns: ["BarDateTime", "Volume"] }, dir)
    );
    const message =
      "columns lacks the lake's partition columns Ticker, TradeDate: added (a lake of eq-taq-1min is laid out by Ticker and TradeDate, and a scan of it shows them)";
    expect(result.warnings).toEqual([message]);
    expect(said).toEqual([`Warning: ${message}`]);
    const lake = local.wb.scan(dir).collectSync().sort(["Ticker", "BarDateTime"]);
    expect([...lake.columns].sort()).toEqual(["BarDateTime", "Ticker", "TradeDate", "Volume"]);
    const whole = await local.wb.data.eqTaq1Min(range.tickers, {
      start: range.start,
      end: range.end,
      columns: ["Ticker", "TradeDate", "BarDateTime", "Volume"],
    });
    expect(lake.height).toBe(whole.height);
    expect(
      lake.select("Ticker", "BarDateTime", "Volume").frameEqual(
        whole.sort(["Ticker", "BarDateTime"]).select("Ticker", "BarDateTime", "Volume"),
      ),
    ).toBe(true);
    // A re-run with the same columns is the same folder: complete, nothing fetched.
    expect((await warned(() => local.wb.download("eq-taq-1min", { ...range, columns: ["BarDateTime", "Volume"] }, dir))).value.fetched)
      .toBe(0);
  });

  it("daily bars with tickers as a filter: the missing one alone is named", async () => {
    const dir = join(scratch, "daily");
    const { value: result } = await warned(() =>
      local.wb.download(
        "eq-daily-ohlc",
        { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-22", columns: ["Ticker", "ClosePrice"] },
        dir,
      )
    );
    expect(result.warnings).toEqual([
      "columns lacks the lake's partition column TradeDate: added (a lake of eq-daily-ohlc is laid out by Ticker and TradeDate, and a scan of it shows it)",
    ]);
    expect(result.rows).toBe(3);
    expect(local.wb.scan(dir).collectSync().getColumn("ClosePrice").length).toBe(3);
  });
});
