/**
 * The option arithmetic under the term-structure helpers, against values worked by hand or
 * with Python's math module (erf, exp, log), printed beside each case: the normal cdf, a
 * Black-Scholes-Merton call (Hull's example 15.6), the forward delta, the dividend yield a
 * call's price implies, and the Cboe put-call-parity forward.
 */
import { describe, expect, it } from "vitest";
import { blackScholesCall, forwardCallDelta, impliedDividendYield, normalCdf, normalPdf, parityForward } from "../../../workbench/mod.ts";

describe("the normal distribution", () => {
  it("matches 0.5·erfc(−x/√2) to 1e-15 from the far left tail to the right", () => {
    // Python: 0.5 * math.erfc(-x / math.sqrt(2))
    const cases: [number, number][] = [
      [-5, 2.866515718791946e-7],
      [-1.5, 0.06680720126885809],
      [0, 0.5],
      [0.3, 0.6179114221889526],
      [1, 0.8413447460685429],
      [2.5, 0.9937903346742238],
      [8, 0.9999999999999993],
    ];
    for (const [x, p] of cases) expect(Math.abs(normalCdf(x) - p), `N(${x})`).toBeLessThan(1e-15);
    expect(normalCdf(-40)).toBe(0);
    expect(normalPdf(0)).toBeCloseTo(1 / Math.sqrt(2 * Math.PI), 15);
  });
});

describe("Black-Scholes-Merton", () => {
  it("prices Hull's example: S 42, K 40, r 10%, σ 20%, six months, a call of 4.76", () => {
    // d1 = [ln(42/40) + (0.1 + 0.02)·0.5] / (0.2·√0.5) = 0.7693, d2 = 0.6278; C = 42·N(d1) − 40·e^(−0.05)·N(d2)
    expect(blackScholesCall({ spot: 42, strike: 40, years: 0.5, rate: 0.1, dividendYield: 0 }, 0.2)).toBeCloseTo(4.759422392871535, 12);
  });

  it("prices a call on a dividend payer: S = K = 100, one year, r 5%, q 3%, σ 20% gives 8.6525", () => {
    // d1 = (0.05 − 0.03 + 0.02) / 0.2 = 0.2, d2 = 0; C = 100·e^(−0.03)·N(0.2) − 100·e^(−0.05)·0.5
    expect(blackScholesCall({ spot: 100, strike: 100, years: 1, rate: 0.05, dividendYield: 0.03 }, 0.2)).toBeCloseTo(8.652528553942709, 12);
  });

  it("gives the forward delta N(d1), d1 = ln(F/K)/(σ√T) + σ√T/2: 0.5398 at the money for σ 20% over a year", () => {
    expect(forwardCallDelta(100, 100, 1, 0.2)).toBeCloseTo(0.539827837277029, 14); // N(0.1)
    // 0.5 exactly at K = F·e^(σ²T/2)
    expect(forwardCallDelta(100, 100 * Math.exp(0.02), 1, 0.2)).toBeCloseTo(0.5, 14);
  });

  it("recovers the dividend yield a call's price implies at a known vol, and refuses a price no yield gives", () => {
    expect(impliedDividendYield({ spot: 100, strike: 100, years: 1, rate: 0.05 }, 8.652528553942709, 0.2)).toBeCloseTo(0.03, 10);
    expect(impliedDividendYield({ spot: 42, strike: 40, years: 0.5, rate: 0.1 }, 4.759422392871535, 0.2)).toBeCloseTo(0, 10);
    expect(impliedDividendYield({ spot: 100, strike: 100, years: 1, rate: 0.05 }, 101, 0.2)).toBeNull(); // above the spot
    expect(impliedDividendYield({ spot: 100, strike: 100, years: 0, rate: 0.05 }, 5, 0.2)).toBeNull();
  });
});

describe("the put-call-parity forward (Cboe's rule)", () => {
  it("takes the strike where call and put differ least: F = 100 + e^(0.05·0.25)·(3.6 − 2.4) = 101.2151", () => {
    const pairs = [{ strike: 95, call: 7.1, put: 1.1 }, { strike: 100, call: 3.6, put: 2.4 }, { strike: 105, call: 1.2, put: 5.1 }];
    const f = parityForward(pairs, 0.25, 0.05)!;
    expect(f.strike).toBe(100);
    expect(f.forward).toBeCloseTo(101.21509414184877, 12);
  });

  it("is null with no complete pair", () => {
    expect(parityForward([], 0.25, 0.05)).toBeNull();
    expect(parityForward([{ strike: 100, call: Number.NaN, put: 1 }], 0.25, 0.05)).toBeNull();
  });
});
