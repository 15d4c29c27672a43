/**
 * How the lake sink writes: a unit is cut into its dates by slices when each date is one run of
 * rows (by Polars' grouping otherwise), rows in the unit's order either way; and a download that
 * fails while a unit's partitions are being written returns only once they are in place and
 * recorded (a sink writing behind the fetching must settle its writes before failing).
 */
import pl from "nodejs-polars";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connect } from "../../workbench/mod.ts";
import { splitByDate } from "../../workbench/store/lakeSplit.ts";
import { journalPartitions } from "./support/lakeBooks.ts";
import { withFullAccess } from "./support/fullAccess.ts";

const local = withFullAccess();
const scratch = mkdtempSync(join(tmpdir(), "lake-writes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const days = (dates: string[]) =>
  pl.DataFrame({ TradeDate: dates, n: dates.map((_, i) => i) }).withColumns(pl.col("TradeDate").str.strptime(pl.Date, "%Y-%m-%d"));
const rowsOf = (frame: pl.DataFrame | undefined) => (frame ? (frame.getColumn("n").toArray() as number[]) : []);

describe("a unit cut into its dates", () => {
  it("is cut into slices when each date is one run, in the unit's order", () => {
    const unit = days(["2023-11-21", "2023-11-21", "2023-11-20", "2023-11-22", "2023-11-22", "2023-11-22"]);
    const { byDate, contiguous } = splitByDate(unit, "TradeDate");
    expect(contiguous).toBe(true);
    expect([...byDate.keys()]).toEqual(["2023-11-21", "2023-11-20", "2023-11-22"]);
    expect([...byDate.values()].map(rowsOf)).toEqual([[0, 1], [2], [3, 4, 5]]);
  });

  it("is grouped by date when a date comes back, each date's rows in their order", () => {
    const unit = days(["2023-11-20", "2023-11-21", "2023-11-20", "2023-11-21", "2023-11-22"]);
    const { byDate, contiguous } = splitByDate(unit, "TradeDate");
    expect(contiguous).toBe(false);
    expect([...byDate.keys()]).toEqual(["2023-11-20", "2023-11-21", "2023-11-22"]);
    expect([...byDate.values()].map(rowsOf)).toEqual([[0, 2], [1, 3], [4]]);
  });
});

describe("a download that fails while partitions are written", () => {
  it("returns its failure only once the units fetched are in place and recorded", async () => {
    // MSFT's answer fails at once, while AAPL's partitions (fetched first) are being written.
    const failing = async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/eq-taq-1min/MSFT")) {
        return new Response(JSON.stringify({ detail: "refused by the test" }), {
          status: 403,
          headers: { "content-type": "application/json" },
        });
      }
      return await local.sb.fetch(input, init);
    };
    const wb = await connect({ baseUrl: local.sb.baseUrl, fetch: failing, apiKey: "demo-full-access" });
    const dir = join(scratch, "failing");
    const error = await wb.download(
      "eq-taq-1min",
      { tickers: ["AAPL", "MSFT"], start: "2023-11-20", end: "2023-11-24", concurrency: 1 },
      dir,
    ).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    // At once, before any later turn of the event loop: nothing is left writing.
    const dates = ["2023-11-20", "2023-11-21", "2023-11-22", "2023-11-24"];
    expect(existsSync(join(dir, "Ticker=AAPL", "part-2023-11-20_2023-11-24.parquet"))).toBe(true);
    const journal = journalPartitions(dir).map((l) => l.path);
    expect(journal).toEqual(dates.map((d) => `Ticker=AAPL/TradeDate=${d}`));
    expect(readdirSync(join(dir, "Ticker=AAPL"), { recursive: true }).filter((f) => String(f).endsWith(".tmp"))).toEqual([]);
  });
});
