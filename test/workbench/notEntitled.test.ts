/**
 * A call refused by the identity's access rule names every reason `ent.may()` (and so
 * `explain`) gives, before sending: the ticker outside the universe and the date outside the
 * window together, not the first found.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { connect, NotEntitledError, QueryError, type Workbench } from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";

let sb: TestSandbox, wb: Workbench;
beforeAll(async () => {
  sb = await startSandbox();
  wb = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-restricted" });
});
afterAll(async () => await sb?.stop());

it("names the ticker outside the universe and the date outside the window, as may() does", async () => {
  const ent = await wb.entitlements();
  const verdict = ent.may("eq-taq-1min", { ticker: "TSLA", date: "2023-11-20" });
  expect(verdict.reasons).toHaveLength(2);
  await wb.meta.schema("eq-taq-1min"); // the free schema, read once per session
  const sent = wb.transport.requestsSent;
  const error = await wb.data.eqTaq1Min("TSLA", { date: "2023-11-20" }).catch((e) => e);
  expect(error).toBeInstanceOf(NotEntitledError);
  expect(error.reasons).toEqual([
    "Ticker 'TSLA' is outside your universe for eq-taq-1min: allowed tickers are AAPL, MSFT",
    "eq-taq-1min.TradeDate ge 2023-11-20 is outside your access window for eq-taq-1min (2023-11-21 to 2023-11-27); narrow the dates or drop the filter to get the whole window",
  ]);
  expect(error.message).toBe(`Refused for 2 reasons: ${error.reasons.join("; ")}`);
  expect(wb.transport.requestsSent).toBe(sent); // judged from the rules: nothing sent
});

it("keeps one reason's message as it was, and a date-only refusal a QueryError", async () => {
  const ticker = await wb.data.eqTaq1Min("SPY", { date: "2023-11-21" }).catch((e) => e);
  expect(ticker).toBeInstanceOf(NotEntitledError);
  expect(ticker.message).toMatch(/^Ticker 'SPY' is outside your universe for eq-taq-1min: allowed tickers are AAPL, MSFT$/);
  const date = await wb.data.eqTaq1Min("AAPL", { date: "2023-11-20" }).catch((e) => e);
  expect(date).toBeInstanceOf(QueryError);
  expect(date.message).toMatch(
    /^eq-taq-1min.TradeDate ge 2023-11-20 is outside your access window for eq-taq-1min \(2023-11-21 to 2023-11-27\); narrow the dates or drop the filter to get the whole window$/,
  );
});
