import { describe, expect, it } from "vitest";
import { greekBoundViolations, readGreeks } from "../../../../sandbox/market/realism/optionFacts.ts";
import { modelValuation } from "../../../../sandbox/market/options/valuation.ts";
import { tinyMarketDir } from "../support/market.ts";

describe("Greeks obey their bounds exactly", () => {
  it("on every row of the tiny market: |Delta| <= 1, Gamma >= 0, Vega >= 0, American Theta <= 0", () => {
    const v = greekBoundViolations(readGreeks(tinyMarketDir()));
    expect(v.rows).toBeGreaterThan(10_000);
    expect({ delta: v.delta, gamma: v.gamma, vega: v.vega, americanTheta: v.americanTheta }).toEqual({
      delta: 0,
      gamma: 0,
      vega: 0,
      americanTheta: 0,
    });
  });

  it("gives a contract in the early-exercise region the payoff's Greeks", () => {
    const deepPut = { call: false, american: true, spot: 100, strike: 150, years: 0.25, rate: 0.053, dividendYield: 0.005 };
    const v = modelValuation(deepPut, 0.2);
    expect(v.price).toBe(50);
    expect([v.delta, v.gamma, v.theta, v.vega]).toEqual([-1, 0, 0, 0]);
  });

  it("keeps Delta inside [0, 1] for a deep in-the-money call whose spot sits near the grid's edge", () => {
    // Low volatility and a far strike put the spot a few nodes from the grid's edge, where the
    // boundary value used to enter the solve twice and bend the value (Delta 1.011 before).
    const v = modelValuation(
      { call: true, american: true, spot: 100, strike: 71.5, years: 0.0319, rate: 0.053, dividendYield: 0.0239 },
      0.0647,
    );
    expect(v.delta).toBeGreaterThan(0.99);
    expect(v.delta).toBeLessThanOrEqual(1);
    expect(v.gamma).toBeGreaterThanOrEqual(0);
    expect(v.vega).toBeGreaterThanOrEqual(0);
  });
});
