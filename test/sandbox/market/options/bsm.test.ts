import { describe, expect, it } from "vitest";
import { bsmPrice, bsmValuation } from "../../../../sandbox/market/options/bsm.ts";
import type { OptionTerms } from "../../../../sandbox/market/options/contract.ts";
import { normalCdf } from "../../../../sandbox/market/options/normal.ts";

const terms = (patch: Partial<OptionTerms>): OptionTerms => ({
  call: true,
  american: false,
  spot: 100,
  strike: 100,
  years: 1,
  rate: 0.05,
  dividendYield: 0,
  ...patch,
});

describe("the closed-form Black-Scholes-Merton pricer", () => {
  it("computes the normal distribution to double precision", () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 14);
    expect(normalCdf(-2)).toBeCloseTo(0.022750131948179195, 14);
    expect(normalCdf(-5) / 2.866515718791939e-7).toBeCloseTo(1, 10);
    expect(normalCdf(-10) / 7.619853024160527e-24).toBeCloseTo(1, 8);
  });

  it("prices Hull's textbook example (S 42, K 40, r 10%, vol 20%, six months)", () => {
    const t = terms({ spot: 42, strike: 40, years: 0.5, rate: 0.1 });
    expect(bsmPrice(t, 0.2)).toBeCloseTo(4.7594, 4);
    expect(bsmPrice({ ...t, call: false }, 0.2)).toBeCloseTo(0.8086, 4);
  });

  it("prices Haug's Merton example with a dividend yield (put, S 100, K 95, q 5%)", () => {
    expect(bsmPrice(terms({ call: false, strike: 95, years: 0.5, rate: 0.1, dividendYield: 0.05 }), 0.2)).toBeCloseTo(2.4648, 4);
  });

  it("keeps put-call parity exactly", () => {
    for (const strike of [60, 95, 100, 140]) {
      const t = terms({ strike, years: 0.7, rate: 0.053, dividendYield: 0.02 });
      const parity = t.spot * Math.exp(-0.02 * 0.7) - strike * Math.exp(-0.053 * 0.7);
      expect(bsmPrice(t, 0.3) - bsmPrice({ ...t, call: false }, 0.3)).toBeCloseTo(parity, 12);
    }
  });

  it("reports Greeks equal to central differences of its own prices, in the datasets' units", () => {
    for (const call of [true, false]) {
      const t = terms({ call, strike: 105, years: 0.4, rate: 0.053, dividendYield: 0.015 });
      const v = bsmValuation(t, 0.25);
      const h = 1e-4;
      const p = (patch: Partial<OptionTerms>, vol = 0.25) => bsmPrice({ ...t, ...patch }, vol);
      expect(v.delta).toBeCloseTo((p({ spot: 100 + h }) - p({ spot: 100 - h })) / (2 * h), 6);
      expect(v.gamma).toBeCloseTo((p({ spot: 100 + 0.01 }) - 2 * p({}) + p({ spot: 100 - 0.01 })) / 1e-4, 5);
      expect(v.theta).toBeCloseTo(-(p({ years: 0.4 + h }) - p({ years: 0.4 - h })) / (2 * h) / 365, 6);
      expect(v.vega).toBeCloseTo((p({}, 0.25 + h) - p({}, 0.25 - h)) / (2 * h) / 100, 6);
      expect(v.rho).toBeCloseTo((p({ rate: 0.053 + h }) - p({ rate: 0.053 - h })) / (2 * h) / 100, 6);
    }
  });
});
