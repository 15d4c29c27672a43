/**
 * The classification of adjusted roots on hand-built reference frames: the cases the tiny
 * market does not hold (a cash merger, a cash distribution, a root with no standard root, a
 * deliverable of 100 own shares) and the ticker a deliverable names being resolved on the
 * ex date through the lookup file.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { classifyRoots } from "../../../workbench/mod.ts";

const day = (d: string) => new Date(`${d}T00:00:00Z`);
type Component = [root: string, ticker: string, type: "stock" | "cash", units: number, cash: number];

function settlements(components: Component[]): pl.DataFrame {
  return pl.DataFrame([
    pl.Series("ProcessDate", components.map(() => day("2023-11-21")), pl.Date),
    pl.Series("OptionTicker", components.map((c) => c[0]), pl.String),
    pl.Series("UnderTicker", components.map((c) => c[1]), pl.String),
    pl.Series("UnderType", components.map((c) => c[2]), pl.String),
    pl.Series("DeliverableUnits", components.map((c) => c[3]), pl.Int64),
    pl.Series("CashAmount", components.map((c) => c[4]), pl.Float64),
  ]);
}

const master = pl.DataFrame([
  pl.Series("OptionTicker", ["AAA", "AAA1", "BBB", "BBB1", "CCC", "CCC1", "DDD", "DDD1", "NEW", "NEW1"], pl.String),
  pl.Series("UnderSecId", [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], pl.Int64),
  pl.Series("OptionTradeDates", [
    ["20120103:29991231"],
    ["20231122:29991231"],
    ["20120103:29991231"],
    ["20231122:29991231"],
    ["20120103:29991231"],
    ["20231122:29991231"],
    ["20120103:29991231"],
    ["20231122:29991231"],
    ["20120103:20231121"],
    ["20231122:29991231"],
  ], pl.List(pl.String)),
]);
// OLD was renamed NEW on 2023-11-20: a deliverable naming NEW on the ex date is security 5.
const lookup = pl.DataFrame([
  pl.Series("Ticker", ["AAA", "BBB", "CCC", "DDD", "OLD", "NEW", "ZZZ"], pl.String),
  pl.Series(
    "EndDate",
    ["2999-12-31", "2999-12-31", "2999-12-31", "2999-12-31", "2023-11-19", "2999-12-31", "2999-12-31"].map(day),
    pl.Date,
  ),
  pl.Series("SecId", [1, 2, 3, 4, 5, 5, 9], pl.Int64),
]);

describe("classifyRoots", () => {
  const roots = classifyRoots(
    settlements([
      ["AAA1", "ZZZ", "cash", 0, 1234.5], // cash only
      ["BBB1", "BBB", "stock", 100, 0],
      ["BBB1", "USD", "cash", 0, 50], // own shares plus cash
      ["CCC1", "CCC", "stock", 100, 0], // 100 own shares: no change
      ["DDD1", "DDD", "stock", 200, 0], // 2-for-1 would not create a root, but if listed it is a split of 2
      ["NEW1", "NEW", "stock", 50, 0], // renamed security's 1-for-2 reverse split, through the lookup
      ["XYZ9", "XYZ", "stock", 150, 0], // no standard root XYZ in the master
    ]),
    master,
    lookup,
  );
  const byRoot = Object.fromEntries(roots.map((r) => [r.optionTicker, r]));

  it("calls a cash-only deliverable a merger and own shares plus cash a distribution", () => {
    expect(byRoot.AAA1).toMatchObject({ kind: "merger", reason: expect.stringMatching(/cash only/) });
    expect(byRoot.BBB1).toMatchObject({ kind: "distribution", deliverable: "100 BBB + 50 USD" });
    expect(byRoot.BBB1.factor).toBeUndefined();
  });

  it("reads factors from own-share deliverables, resolving a renamed ticker through the lookup file", () => {
    expect(byRoot.DDD1).toMatchObject({ kind: "split", factor: 2, exDate: "2023-11-22", secId: 4 });
    expect(byRoot.NEW1).toMatchObject({ kind: "split", factor: 0.5, secId: 5, ticker: "NEW" });
  });

  it("does not guess: 100 own shares and a root without a standard root are unknown, with the reason", () => {
    expect(byRoot.CCC1).toMatchObject({ kind: "unknown", reason: expect.stringMatching(/no change in share count/) });
    expect(byRoot.XYZ9).toMatchObject({ kind: "unknown", reason: expect.stringMatching(/no standard root XYZ/) });
    expect(byRoot.XYZ9.exDate).toBe("2023-11-21"); // no root in the master: the process date
  });
});
