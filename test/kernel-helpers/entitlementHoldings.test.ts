/**
 * The entitlements card and `explain` beside what the key sees of the data: a "visible to you"
 * column (dates and the count the key's status gives, the known names as a tooltip), never "the
 * data holds" (the status is scoped to the key's window); an entitled read that would find no
 * row shown as allowed but empty, with every reason; a date the window hides never said to be
 * missing from the data. Checked in the HTML and text bundles, and drawn in headless Chromium
 * (`ENTITLEMENT_SHOTS=dir` keeps the screenshot).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, describe, expect, it } from "vitest";
import { entitlementCardBundle } from "../../kernel-helpers/entitlements/card.ts";
import { explain } from "../../kernel-helpers/mod.ts";
import { type AccessRule, Entitlements, type Holding } from "../../workbench/mod.ts";
import { TickerBook } from "../../workbench/guard/tickers.ts";
import { fileBrowser } from "../scripts/support/chromium.ts";
import { decodePng } from "../scripts/support/png.ts";
import process from "node:process";

const DISPLAY = Symbol.for("Jupyter.display");
const browser = fileBrowser();
afterAll(() => browser.close());
const bundleOf = (value: unknown) => (value as Record<symbol, () => Record<string, string>>)[DISPLAY]();

const rule = (id: string, universe: string[] = []): AccessRule => ({
  dataset_text_id: id,
  dataset_id: id,
  dataset_name: id,
  dataset_version: "1",
  start_date: "2000-01-01",
  end_date: null,
  universe_identifiers: universe,
});
const rules = [rule("eq-taq-1min"), rule("opt-greeks-daily", ["AAPL"])];
const book = new TickerBook([
  { ticker: "AAPL", secId: "1", endDate: "2999-12-31" },
  { ticker: "SQ", secId: "2", endDate: "2023-11-26" },
  { ticker: "XYZ", secId: "2", endDate: "2999-12-31" },
]);
const holdings: Record<string, Holding> = {
  "eq-taq-1min": {
    dataset: "eq-taq-1min",
    first: "2023-11-01",
    last: "2024-01-31",
    tickerCount: 3,
    symbol: "ticker",
    tickers: ["AAPL", "SQ", "XYZ"],
  },
  "opt-greeks-daily": { dataset: "opt-greeks-daily", first: null, last: null, unread: "503 Service Unavailable" },
};
const quotas = {
  quotas_usage: { per_minute_requests: 0, monthly_requests: 0, monthly_data_scanned: 0, monthly_data_returned: 0 },
  quotas_limit: { per_minute_requests: 30, monthly_requests: 100, monthly_data_scanned: 2 ** 30, monthly_data_returned: 2 ** 30 },
};
const ent = new Entitlements({ identity_id: 1, name: "Desk", max_active_api_keys: 2, ip_subnets: [] }, rules, quotas, holdings, book);

describe("the card beside what the key sees", () => {
  it("shows each dataset's dates and tickers visible to the key next to the entitled window", () => {
    const bundle = entitlementCardBundle(ent);
    const doc = new JSDOM(bundle["text/html"]).window.document;
    expect([...doc.querySelectorAll("th")].map((th) => th.textContent)).toEqual(["dataset", "dates", "tickers", "visible to you"]);
    const cells = [...doc.querySelectorAll("tbody tr")].map((tr) => [...tr.children].slice(1).map((td) => td.textContent));
    expect(cells).toEqual([
      ["2000-01-01 → ongoing", "all tickers", "2023-11-01 to 2024-01-31, 3 tickers"],
      ["2000-01-01 → ongoing", "AAPL", "not known (503 Service Unavailable)"],
    ]);
    expect(doc.querySelector("tbody tr td:last-child")!.getAttribute("title")).toBe("the service knows 3: AAPL, SQ, XYZ");
    expect(bundle["text/plain"].split("\n").slice(1, 3)).toEqual([
      "  eq-taq-1min: 2000-01-01 to ongoing, all tickers; visible to you: 2023-11-01 to 2024-01-31, 3 tickers",
      "  opt-greeks-daily: 2000-01-01 to ongoing, AAPL; visible to you: not known (503 Service Unavailable)",
    ]);
  });

  it("counts option roots for an option dataset, not tickers", () => {
    const options = new Entitlements(ent.identity, [rule("opt-open-interest")], quotas, {
      "opt-open-interest": {
        dataset: "opt-open-interest",
        first: "2023-11-01",
        last: "2024-01-31",
        tickerCount: 16,
        symbol: "option root",
        roots: ["AAPL", "SPXW"],
      },
    });
    const doc = new JSDOM(entitlementCardBundle(options)["text/html"] as string).window.document;
    expect([...doc.querySelectorAll("tbody td")].slice(1).map((td) => td.textContent)).toEqual([
      "2000-01-01 → ongoing",
      "all option roots",
      "2023-11-01 to 2024-01-31, 16 option roots",
    ]);
  });
});

describe("may() and explain() beside what the key sees", () => {
  it("an entitled read of an unknown ticker on a date outside the data: allowed, with both reasons it finds no row", () => {
    const verdict = ent.may("eq-taq-1min", { ticker: "TSLA", date: "2020-01-02" });
    expect(verdict).toMatchObject({ allowed: true, reasons: [] });
    expect(verdict.missing).toEqual([
      "2020-01-02 is not in the data of eq-taq-1min: the dates visible to you run 2023-11-01 to 2024-01-31",
      "TSLA is not a ticker the service knows; the lookup files know 3 tickers: AAPL, SQ, XYZ",
    ]);
    expect(bundleOf(explain(verdict))["text/plain"].split("\n")).toEqual([
      "allowed, but the data holds no row for it:",
      `  - ${verdict.missing![0]}`,
      `  - ${verdict.missing![1]}`,
      "entitled: Yes: eq-taq-1min from 2000-01-01 to today, every ticker",
    ]);
  });

  it("a date the key's window hides is outside your window, never missing from the data", () => {
    // The restricted demo key: its window is all its status shows, so the data seems to end there.
    const window = { ...rule("eq-daily-ohlc", ["AAPL", "MSFT"]), start_date: "2023-11-21", end_date: "2023-11-27" };
    const restricted = new Entitlements(ent.identity, [window], quotas, {
      "eq-daily-ohlc": { dataset: "eq-daily-ohlc", first: "2023-11-21", last: "2023-11-27", tickerCount: 2, symbol: "ticker" },
    });
    expect(restricted.may("eq-daily-ohlc", { ticker: "MSFT", date: "2023-12-01" })).toEqual({
      allowed: false,
      reason:
        "2023-12-01 is outside your access window for eq-daily-ohlc (2023-11-21 to 2023-11-27): whether the data holds it, this key cannot see",
      reasons: [
        "2023-12-01 is outside your access window for eq-daily-ohlc (2023-11-21 to 2023-11-27): whether the data holds it, this key cannot see",
      ],
      missing: [],
    });
    // Inside the window, a day the data lacks is said to be not in the data.
    expect(restricted.may("eq-daily-ohlc", { ticker: "MSFT", date: "2023-11-25" }).missing).toEqual([
      "2023-11-25 is a Saturday, not a trading day: the nearest are 2023-11-24 before and 2023-11-27 after",
    ]);
  });

  it("a holiday, and a renamed security on either side of its rename", () => {
    expect(ent.may("eq-taq-1min", { ticker: "AAPL", date: "2023-11-23" }).missing).toEqual([
      "2023-11-23 is a market holiday (Thanksgiving Day), not a trading day: the nearest are 2023-11-22 before and 2023-11-24 after",
    ]);
    expect(ent.may("eq-taq-1min", { ticker: "XYZ", date: "2023-11-21" }).missing).toEqual([
      "on 2023-11-21, XYZ begins on 2023-11-27: until 2023-11-26 its security 2 traded as SQ; ask for SQ",
    ]);
    expect(ent.may("eq-taq-1min", { ticker: "SQ", date: "2023-11-28" }).missing).toEqual([
      expect.stringMatching(/^on 2023-11-28, SQ was renamed: it trades as XYZ from 2023-11-27/),
    ]);
    expect(ent.may("eq-taq-1min", { ticker: "XYZ", date: "2023-11-27" })).toEqual({
      allowed: true,
      reason: "Yes: eq-taq-1min from 2000-01-01 to today, every ticker",
      reasons: [],
      missing: [],
    });
  });

  it("a refused read lists the refusals and, under them, why the data holds no row either", () => {
    const verdict = ent.may("opt-greeks-daily", { ticker: "SPY", date: "2023-11-21" });
    expect(verdict.reasons).toEqual(["Ticker SPY is outside your universe for opt-greeks-daily (AAPL)"]);
    expect(verdict.missing).toEqual([]); // its status was not read: nothing is claimed about its data
    const refusedAndEmpty = bundleOf(explain(ent.may("eq-taq-1min", { ticker: "TSLA", date: "2020-01-02" })));
    expect(refusedAndEmpty["text/html"]).toContain("allowed, but the data holds no row for it");
  });

  it("draws the card and an empty-but-allowed answer legibly in Chromium", async () => {
    const dir = process.env.ENTITLEMENT_SHOTS ?? mkdtempSync(join(tmpdir(), "entitlement-holdings-"));
    const page = join(dir, "holdings.html");
    const answer = bundleOf(explain(ent.may("eq-taq-1min", { ticker: "TSLA", date: "2020-01-02" })))["text/html"];
    writeFileSync(
      page,
      `<!doctype html><meta charset="utf-8"><body style="margin:10px;background:#fff">${
        entitlementCardBundle(ent)["text/html"]
      }<br>${answer}</body>`,
    );
    const png = await (await browser.open(page, 800, 420)).screenshot();
    if (process.env.ENTITLEMENT_SHOTS) writeFileSync(join(dir, "holdings.png"), png);
    const image = decodePng(png);
    expect(image.width).toBe(800);
    if (!process.env.ENTITLEMENT_SHOTS) rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
