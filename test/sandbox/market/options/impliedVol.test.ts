import { describe, expect, it } from "vitest";
import { bsmPrice } from "../../../../sandbox/market/options/bsm.ts";
import type { OptionTerms } from "../../../../sandbox/market/options/contract.ts";
import { fdSolve } from "../../../../sandbox/market/options/crankNicolson.ts";
import { bsmImpliedVol, priceBounds, solveImpliedVol } from "../../../../sandbox/market/options/impliedVol.ts";

const terms = (patch: Partial<OptionTerms>): OptionTerms => ({
  call: true,
  american: false,
  spot: 100,
  strike: 100,
  years: 0.25,
  rate: 0.053,
  dividendYield: 0.01,
  ...patch,
});

describe("the implied-volatility solver", () => {
  it("recovers the closed-form volatility a price was made with, across strikes and maturities", () => {
    for (const strike of [70, 90, 100, 115, 150]) {
      for (const years of [3 / 365, 0.25, 1]) {
        for (const vol of [0.08, 0.25, 0.9]) {
          const t = terms({ strike, years, call: strike >= 100 });
          const price = bsmPrice(t, vol);
          if (price < 1e-6) continue;
          expect(bsmImpliedVol(t, price), `K ${strike} T ${years} vol ${vol}`).toBeCloseTo(vol, 6);
        }
      }
    }
  });

  it("recovers the grid model's volatility for American options, whatever the first guess", () => {
    for (const guess of [0.05, 0.3, 3]) {
      const t = terms({ call: false, american: true, strike: 110, years: 0.5 });
      const price = fdSolve(t, 0.32).price;
      const s = solveImpliedVol((v) => fdSolve(t, v), price, { guess });
      expect(s.converged).toBe(true);
      expect(s.vol).toBeCloseTo(0.32, 5);
      expect(s.at!.price).toBeCloseTo(price, 5);
    }
  });

  it("finds no volatility for a price outside the no-arbitrage bounds", () => {
    const put = terms({ call: false, american: true, strike: 120 });
    expect(priceBounds(put)).toEqual({ lower: 20, upper: 120 });
    expect(bsmImpliedVol(terms({}), 0)).toBeNaN();
    expect(bsmImpliedVol(terms({}), 101)).toBeNaN();
    expect(bsmImpliedVol(terms({ strike: 50 }), 49)).toBeNaN(); // below the discounted forward intrinsic value
  });
});
