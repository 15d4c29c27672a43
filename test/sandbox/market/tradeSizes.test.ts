import { describe, expect, it } from "vitest";
import { Rng } from "../../../sandbox/market/rng.ts";
import { extremeSize, minuteTradeSizes, REAL_MEAN_TRADE_SIZE } from "../../../sandbox/market/ticks/tradeSizes.ts";

describe("print sizes: the real shape, and every minute carrying its own volume", () => {
  const rng = Rng.for(7, "trade-size-test");
  const meanSize = 5000; // AAPL emitted at 1/25 of its prints
  const sizes: number[] = [];

  it("gives each minute about its prints times the mean print, never piling it into a few minutes", () => {
    const ratios: number[] = [];
    for (let minute = 0; minute < 4000; minute++) {
      const count = 1 + (minute % 30);
      const total = minuteTradeSizes(rng, count, meanSize, sizes).reduce((a, b) => a + b, 0);
      expect(sizes.length).toBe(count);
      ratios.push(total / (count * meanSize));
    }
    ratios.sort((a, b) => a - b);
    const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
    expect(mean).toBeGreaterThan(0.97);
    expect(mean).toBeLessThan(1.03);
    // Log-normal noise of sd 0.25 around the minute's share: the 1% and 99% minutes within ~2x.
    expect(ratios[Math.floor(0.01 * ratios.length)]).toBeGreaterThan(0.45);
    expect(ratios[Math.floor(0.99 * ratios.length)]).toBeLessThan(2.2);
  });

  it("keeps the body's shape: ~60% odd lots, ~18% exactly 100, blocks in round lots", () => {
    const all: number[] = [];
    for (let minute = 0; minute < 3000; minute++) all.push(...minuteTradeSizes(rng, 20, meanSize, sizes));
    const share = (f: (s: number) => boolean) => all.filter(f).length / all.length;
    expect(share((s) => s < 100)).toBeGreaterThan(0.55);
    expect(share((s) => s < 100)).toBeLessThan(0.62);
    expect(share((s) => s === 100)).toBeGreaterThan(0.15);
    expect(share((s) => s === 100)).toBeLessThan(0.2);
    expect(all.filter((s) => s >= 100).every((s) => s % 100 === 0)).toBe(true);
  });

  it("scales every print down when a name is emitted at its real print count or more", () => {
    const small = REAL_MEAN_TRADE_SIZE / 2;
    let total = 0, n = 0;
    for (let minute = 0; minute < 2000; minute++) for (const s of minuteTradeSizes(rng, 5, small, sizes)) (total += s, n++);
    expect(total / n).toBeGreaterThan(0.9 * small);
    expect(total / n).toBeLessThan(1.1 * small);
  });

  it("sizes a print at a session extreme as the body (no block)", () => {
    for (let i = 0; i < 1000; i++) {
      const s = extremeSize(rng);
      expect(s).toBeGreaterThan(0);
      expect(s < 100 || s % 100 === 0).toBe(true);
    }
  });
});
