/**
 * What exists beside what is allowed, against the real sandbox: `wb.entitlements()` keeps what
 * each entitled dataset holds (its dates from the status, the tickers the lookup files know),
 * and `may()` says when an entitled read would find no row and why.
 */
import { describe, expect, it } from "vitest";
import { withFullAccess } from "./support/fullAccess.ts";

const local = withFullAccess();

describe("entitlements beside what the data holds", () => {
  it("holds every entitled dataset's dates as its status gives them, and the known tickers for equity datasets", async () => {
    const ent = await local.wb.entitlements();
    expect(Object.keys(ent.holdings).sort()).toEqual(ent.rules.map((r) => r.dataset_text_id).sort());
    for (const rule of ent.rules) {
      const status = await local.wb.meta.status(rule.dataset_text_id);
      expect(ent.holdings[rule.dataset_text_id]).toMatchObject({ first: status.first_available_date, last: status.last_available_date });
    }
    const lookup = await local.wb.data.eqLookupFiles();
    const known = [...new Set(lookup.getColumn("Ticker").toArray() as string[])].sort();
    expect(ent.holdings["eq-taq-1min"].tickers).toEqual(known);
    expect(ent.holdings["opt-greeks-daily"].tickers).toBeUndefined(); // roots are not the lookup files' tickers
  });

  it("says an entitled read of an unknown ticker on a date outside the data finds no row, for both reasons", async () => {
    const ent = await local.wb.entitlements();
    const { first, last } = ent.holdings["eq-taq-1min"];
    const verdict = ent.may("eq-taq-1min", { ticker: "TSLA", date: "2020-01-02" });
    expect(verdict.allowed).toBe(true); // the full-access key is entitled to it
    expect(verdict.missing).toEqual([
      `2020-01-02 is outside the data of eq-taq-1min, which runs ${first} to ${last}`,
      expect.stringMatching(/^TSLA is not a ticker the service knows \(did you mean 'TSM'\?\); eq-taq-1min holds 14 tickers: AAPL, CVX, /),
    ]);
    expect(verdict.reason).toMatch(/^Yes: eq-taq-1min from 2000-01-01 to today, every ticker, but the data holds no row for it: 2020-01-02 is outside/);
    expect(ent.may("eq-taq-1min", { ticker: "AAPL", date: first! })).toMatchObject({ allowed: true, missing: [], reasons: [] });
  });

  it("names the old and the new ticker of a renamed security on either side of the rename", async () => {
    const ent = await local.wb.entitlements();
    const before = ent.may("eq-daily-ohlc", { ticker: "XYZ", date: "2023-11-21" }).missing;
    expect(before).toEqual(["on 2023-11-21, XYZ begins on 2023-11-27: until 2023-11-26 its security 100013 traded as SQ; ask for SQ"]);
    const after = ent.may("eq-daily-ohlc", { ticker: "SQ", date: "2023-11-28" }).missing;
    expect(after).toEqual([expect.stringMatching(/^on 2023-11-28, SQ was renamed: it trades as XYZ from 2023-11-27/)]);
    expect(ent.may("eq-daily-ohlc", { ticker: "XYZ", date: "2023-11-27" }).missing).toEqual([]);
  });
});
