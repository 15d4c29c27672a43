/**
 * A call whose provenance record cannot be written to the run's journal (a full disk, a path
 * that cannot be a file) says so on the frame it returned, and a download in its result's
 * warnings, not only in a console warning: the record stays in `wb.provenance()`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { connect, frameWarnings } from "../../../workbench/mod.ts";
import { withFullAccess } from "../support/fullAccess.ts";
import process from "node:process";

const local = withFullAccess();
const scratch = mkdtempSync(join(tmpdir(), "provenance-unwritten-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("a provenance record that cannot be written", () => {
  it("is said on the call's frame, naming the journal and the cause; wb.provenance() still holds it", async () => {
    const notAFolder = join(scratch, "file");
    writeFileSync(notAFolder, "");
    const journal = join(notAFolder, "journal.jsonl"); // its parent is a file: no append can succeed
    const before = process.env.MARKETDATA_PROVENANCE_JOURNAL;
    process.env.MARKETDATA_PROVENANCE_JOURNAL = journal;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const wb = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: "demo-full-access" });
      const frame = await wb.data.eqDailyOhlc("AAPL", { date: "2023-11-21" });
      const manifest = wb.provenance(); // runs the deferred recording
      expect(manifest.calls).toHaveLength(1);
      expect(frameWarnings(frame)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^provenance: this call's record could not be written \\(Cannot append to '${journal}': .*\\); wb.provenance\\(\\) holds it, the run's journal does not$`,
          ),
        ),
      ]);
    } finally {
      warn.mockRestore();
      if (before === undefined) delete process.env.MARKETDATA_PROVENANCE_JOURNAL;
      else process.env.MARKETDATA_PROVENANCE_JOURNAL = before;
    }
  });

  it("is said in a download's result warnings as it returns, naming the journal and the cause; wb.provenance() still holds it", async () => {
    const notAFolder = join(scratch, "file-too");
    writeFileSync(notAFolder, "");
    const journal = join(notAFolder, "journal.jsonl");
    const before = process.env.MARKETDATA_PROVENANCE_JOURNAL;
    process.env.MARKETDATA_PROVENANCE_JOURNAL = journal;
    const said: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((m: unknown) => void said.push(String(m)));
    try {
      const wb = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: "demo-full-access" });
      const result = await wb.download(
        "eq-daily-ohlc",
        { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-22" },
        join(scratch, "lake"),
      );
      const expected = new RegExp(
        `^provenance: this download's record could not be written \\(Cannot append to '${journal}': .*\\); wb.provenance\\(\\) holds it, the run's journal does not$`,
      );
      expect(result.warnings).toEqual([expect.stringMatching(expected)]); // read at once: no wait for the deferred recording
      expect(said).toEqual([`Warning: ${result.warnings[0]}`]);
      expect(wb.provenance().downloads).toHaveLength(1);
    } finally {
      warn.mockRestore();
      if (before === undefined) delete process.env.MARKETDATA_PROVENANCE_JOURNAL;
      else process.env.MARKETDATA_PROVENANCE_JOURNAL = before;
    }
  });
});
