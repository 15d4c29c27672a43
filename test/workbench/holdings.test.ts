/**
 * What exists beside what is allowed, against the real sandbox: `wb.entitlements()` keeps what
 * each entitled dataset holds (its dates from the status, the tickers the lookup files know),
 * and `may()` says when an entitled read would find no row and why.
 */
import { describe, expect, it } from "vitest";
import { entitlementCardBundle } from "../../kernel-helpers/entitlements/card.ts";
import { connect } from "../../workbench/mod.ts";
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
      `2020-01-02 is not in the data of eq-taq-1min: the dates visible to you run ${first} to ${last}`,
      expect.stringMatching(
        /^TSLA is not a ticker the service knows \(did you mean 'TSM'\?\); the lookup files know 14 tickers: AAPL, CVX, /,
      ),
    ]);
    expect(verdict.reason).toMatch(
      /^Yes: eq-taq-1min from 2000-01-01 to today, every ticker, but the data holds no row for it: 2020-01-02 is not in the data/,
    );
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

describe("what a restricted key sees is not what the data holds", () => {
  it("a date the window hides is outside your window, never outside the data, though the full key reads that row", async () => {
    const restricted = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: "demo-restricted" });
    const ent = await restricted.entitlements();
    // The key's status shows only its window: the data seems to run 2023-11-21 to 2023-11-27.
    expect(ent.holdings["eq-daily-ohlc"]).toMatchObject({ first: "2023-11-21", last: "2023-11-27", tickerCount: 2 });
    const full = await local.wb.data.eqDailyOhlc("MSFT", { date: "2023-11-28" });
    expect(full.height).toBe(1);
    expect(ent.may("eq-daily-ohlc", { ticker: "MSFT", date: "2023-11-28" })).toEqual({
      allowed: false,
      reason:
        "2023-11-28 is outside your access window for eq-daily-ohlc (2023-11-21 to 2023-11-27): whether the data holds it, this key cannot see",
      reasons: [
        "2023-11-28 is outside your access window for eq-daily-ohlc (2023-11-21 to 2023-11-27): whether the data holds it, this key cannot see",
      ],
      missing: [],
    });
    // The card says what the key sees, by that name.
    const text = entitlementCardBundle(ent)["text/plain"];
    expect(text).toContain("  eq-daily-ohlc: 2023-11-21 to 2023-11-27, AAPL, MSFT; visible to you: 2023-11-21 to 2023-11-27, 2 tickers");
    expect(text).not.toContain("holds");
  });

  it("counts option roots for option datasets, and judges a root asked of may() against the security master", async () => {
    const ent = await local.wb.entitlements();
    const greeks = await local.wb.data.optGreeksDaily();
    const roots = (await local.wb.data.optSecMaster()).getColumn("OptionTicker").toArray() as string[];
    expect(ent.holdings["opt-greeks-daily"]).toMatchObject({
      symbol: "option root",
      tickerCount: greeks.getColumn("Ticker").nUnique(),
      roots: [...roots].sort(),
    });
    expect(ent.holdings["opt-greeks-daily"].tickerCount).not.toBe(ent.holdings["eq-daily-ohlc"].tickerCount);
    expect(entitlementCardBundle(ent)["text/plain"]).toContain(
      `opt-greeks-daily: 2000-01-01 to ongoing, all option roots; visible to you: 2023-11-20 to 2023-11-28, ${
        greeks.getColumn("Ticker").nUnique()
      } option roots`,
    );
    expect(ent.may("opt-greeks-daily", { ticker: "APPL", date: "2023-11-21" }).missing).toEqual([
      `APPL is not an option root the service knows (did you mean 'AAPL'?); the security master knows ${roots.length} roots: ${
        [...roots].sort().join(", ")
      }`,
    ]);
    expect(ent.may("opt-greeks-daily", { ticker: "SPX", date: "2023-11-21" }).missing![0]).toMatch(
      /^SPX is not an option root the service knows \(SPX is the underlying of option root SPXW: ask for SPXW\)/,
    );
  });
});
