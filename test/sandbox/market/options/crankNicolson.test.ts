import { describe, expect, it } from "vitest";
import { bsmPrice, bsmValuation } from "../../../../sandbox/market/options/bsm.ts";
import { intrinsicValue, type OptionTerms } from "../../../../sandbox/market/options/contract.ts";
import { DEFAULT_FD, fdSolve } from "../../../../sandbox/market/options/crankNicolson.ts";

const terms = (patch: Partial<OptionTerms>): OptionTerms => ({
  call: false,
  american: false,
  spot: 100,
  strike: 100,
  years: 1,
  rate: 0.05,
  dividendYield: 0,
  ...patch,
});

/** A spread of contracts: in, at and out of the money, short and long, calls and puts. */
const CASES: [Partial<OptionTerms>, number][] = [
  [{ call: false }, 0.2],
  [{ call: true, years: 0.02 }, 0.2],
  [{ call: false, strike: 80, years: 0.25 }, 0.3],
  [{ call: true, strike: 130, years: 0.5, dividendYield: 0.01 }, 0.25],
  [{ call: false, strike: 120, years: 1, rate: 0.053 }, 0.25],
  [{ call: true, spot: 4300, strike: 4000, years: 0.08, dividendYield: 0.014 }, 0.13],
];

describe("the Crank-Nicolson finite-difference pricer", () => {
  it("converges to the closed form for European options at second order, down to its domain's truncation floor", () => {
    for (const [patch, vol] of CASES) {
      const t = terms(patch);
      const exact = bsmPrice(t, vol);
      const errors = [[30, 10], [120, 40]].map(([nodes, steps]) => Math.abs(fdSolve(t, vol, { nodes, steps }).price - exact));
      // Four times the nodes and steps cut a second-order error sixteenfold; cutting the grid
      // at 4.5 standard deviations leaves about a millionth of the spot however fine it is.
      expect(errors[1], JSON.stringify(patch)).toBeLessThan(Math.max(errors[0] / 8, 2e-6 * t.spot));
      // At the market's grid the error is a small fraction of a volatility point.
      const vega = bsmValuation(t, vol).vega * 100;
      expect(Math.abs(fdSolve(t, vol, DEFAULT_FD).price - exact) / vega, JSON.stringify(patch)).toBeLessThan(0.0015);
    }
  });

  it("values the American put above the European put (S = K = 100, r 5%, vol 20%, one year)", () => {
    const american = fdSolve(terms({ american: true }), 0.2, { nodes: 400, steps: 400 }).price;
    const european = bsmPrice(terms({}), 0.2);
    expect(european).toBeCloseTo(5.5735, 4);
    // The literature's value from a 10,000-step binomial tree is 6.0903.
    expect(american).toBeCloseTo(6.09, 2);
    expect(american - european).toBeGreaterThan(0.5);
  });

  it("values an American call without dividends at the European call: early exercise never pays", () => {
    const t = terms({ call: true, american: true, strike: 95, years: 0.5 });
    const grid = { nodes: 400, steps: 200 };
    expect(fdSolve(t, 0.3, grid).price).toBeCloseTo(fdSolve({ ...t, american: false }, 0.3, grid).price, 10);
    expect(fdSolve(t, 0.3, grid).price).toBeCloseTo(bsmPrice(t, 0.3), 2);
  });

  it("never prices an American option below its European value or its intrinsic value", () => {
    for (const call of [true, false]) {
      for (const strike of [50, 80, 95, 100, 105, 120, 200]) {
        for (const years of [1 / 365, 0.05, 0.5, 1]) {
          for (const [vol, q] of [[0.1, 0], [0.4, 0.04]]) {
            const t = terms({ call, american: true, strike, years, dividendYield: q, rate: 0.053 });
            const price = fdSolve(t, vol).price;
            const label = `${call ? "C" : "P"} K ${strike} T ${years} vol ${vol}`;
            expect(price, label).toBeGreaterThanOrEqual(intrinsicValue(t));
            // The grid's own error (a fraction of a volatility point, and a ten-thousandth of a
            // cent where Vega vanishes deep in the money) is the only allowance.
            expect(price, label).toBeGreaterThanOrEqual(bsmPrice(t, vol) - 0.0015 * bsmValuation(t, vol).vega * 100 - 1e-6);
          }
        }
      }
    }
  });

  it("reads Delta, Gamma and Theta off the grid in agreement with finite differences of its prices", () => {
    for (const [patch, vol] of CASES) {
      const t = terms({ ...patch, american: true });
      const g = fdSolve(t, vol, { nodes: 200, steps: 100 });
      const p = (x: Partial<OptionTerms>) => fdSolve({ ...t, ...x }, vol, { nodes: 200, steps: 100 }).price;
      const h = 0.01 * t.spot, dt = Math.min(0.01, t.years / 10);
      const label = JSON.stringify(patch);
      expect(g.delta, label).toBeCloseTo((p({ spot: t.spot + h }) - p({ spot: t.spot - h })) / (2 * h), 2);
      expect(Math.abs(g.gamma - (p({ spot: t.spot + h }) - 2 * g.price + p({ spot: t.spot - h })) / (h * h)), label).toBeLessThan(
        0.05 * g.gamma + 1e-4,
      );
      const fdTheta = -(p({ years: t.years + dt }) - p({ years: t.years - dt })) / (2 * dt) / 365;
      expect(Math.abs(g.theta - fdTheta), label).toBeLessThan(0.03 * Math.abs(fdTheta) + 1e-4);
    }
  });
});
