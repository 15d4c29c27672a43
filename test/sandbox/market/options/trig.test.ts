import { describe, expect, it } from "vitest";
import { sinCos } from "../../../../sandbox/market/options/trig.ts";

// Correctly rounded sin and cos (mpmath at 200 bits) of quadrature and Chebyshev angles where
// Node 20's Math.sin/Math.cos (the first four) or Deno's (the last three) miss by a last bit.
const REFERENCE: [x: number, sin: number, cos: number][] = [
  [4.1887902047863905, -0.8660254037844384, -0.5000000000000004],
  [3.7699111843077517, -0.587785252292473, -0.8090169943749476],
  [1.9896753472735356, 0.913545457642601, -0.40673664307580004],
  [7.180783208205241, 0.7818314824680296, 0.6234898018587337],
  [5.969026041820607, -0.3090169943749476, 0.9510565162951535],
  [6.126105674500097, -0.1564344650402311, 0.9876883405951377],
  [42.54240051736178, -0.9914448613738113, 0.13052619222004538],
];

describe("sinCos", () => {
  it("rounds correctly where the runtimes' Math.sin and Math.cos differ", () => {
    for (const [x, sin, cos] of REFERENCE) expect(sinCos(x), String(x)).toEqual({ sin, cos });
  });

  it("is exact at the quadrant points and odd/even about 0", () => {
    expect(sinCos(0)).toEqual({ sin: 0, cos: 1 });
    expect(sinCos(Math.PI / 2)).toEqual({ sin: 1, cos: 6.123233995736766e-17 });
    expect(sinCos(Math.PI)).toEqual({ sin: 1.2246467991473532e-16, cos: -1 });
    for (const x of [0.1, 1, 2.5, 10]) expect(sinCos(-x)).toEqual({ sin: -sinCos(x).sin, cos: sinCos(x).cos });
  });

  it("agrees with Math.sin and Math.cos within an ulp everywhere else", () => {
    for (let x = -20; x <= 20; x += 0.0137) {
      const { sin, cos } = sinCos(x);
      expect(Math.abs(sin - Math.sin(x))).toBeLessThanOrEqual(2.3e-16 * Math.max(Math.abs(sin), 1e-300) + 1e-300);
      expect(Math.abs(cos - Math.cos(x))).toBeLessThanOrEqual(2.3e-16 * Math.max(Math.abs(cos), 1e-300) + 1e-300);
    }
  });

  it("refuses arguments beyond its reduction's reach", () => {
    expect(() => sinCos(1e7)).toThrow(/sinCos takes \|x\| up to 1e6, got 10000000/);
    expect(() => sinCos(NaN)).toThrow(RangeError);
  });
});
