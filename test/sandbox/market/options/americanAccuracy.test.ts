import { describe, expect, it } from "vitest";
import type { OptionTerms } from "../../../../sandbox/market/options/contract.ts";
import { priceExpiry } from "../../../../sandbox/market/options/pricing.ts";
import { modelSolve } from "../../../../sandbox/market/options/valuation.ts";
import { treePrice } from "./binomialReference.ts";

const SPY = { american: true, rate: 0.053, dividendYield: 0.014 } as const;
/** Hard rows of the demo market (issue 20, item 7), with the volatility QuantLib implies from their mids. */
const CASES: { name: string; terms: OptionTerms; vol: number; open?: true }[] = [
  { name: "far out-of-the-money call, 330 days", terms: { ...SPY, call: true, spot: 414.92, strike: 550, years: 330 / 365 }, vol: 0.17745 },
  { name: "deep in-the-money call expiring tomorrow, vol 124%", terms: { ...SPY, call: true, spot: 414.92, strike: 345, years: 1 / 365 }, vol: 1.23834 },
  { name: "in-the-money put near the exercise boundary, 14 days", terms: { ...SPY, call: false, spot: 421.865, strike: 443, years: 14 / 365 }, vol: 0.14359, open: true },
  { name: "out-of-the-money put, 330 days", terms: { call: false, american: true, spot: 201.745, strike: 170, years: 330 / 365, rate: 0.053, dividendYield: 0.005 }, vol: 0.25799, open: true },
];

describe("American values against an independent Richardson-extrapolated binomial tree", () => {
  for (const { name, terms, vol, open } of CASES) {
    // Puts still miss on the market's 50 x 20 premium grid (implied vol 0.24 point off near the
    // boundary, price $0.009 off at 330 days): kept as known failures, so a fix shows here.
    (open ? it.fails : it)(`prices the ${name} within $0.005 (or 0.1%) and implies its volatility within 0.05 point`, () => {
      const reference = treePrice(terms, vol);
      expect(Math.abs(modelSolve(terms, vol).price - reference)).toBeLessThanOrEqual(Math.max(0.005, 0.001 * reference));
      // The generator's path: the quote was made around the surface volatility, 10% off here.
      const start = vol * 1.1;
      const [out] = priceExpiry([{ terms, mid: reference, fair: modelSolve(terms, start), surfaceVol: start }]);
      expect(out.status).toBe("computed");
      expect(Math.abs(out.vol - vol)).toBeLessThanOrEqual(0.0005);
    });
  }
});
