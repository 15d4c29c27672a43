import { describe, expect, it } from "vitest";
import { bsmPrice, bsmValuation } from "../../../../sandbox/market/options/bsm.ts";
import { intrinsicValue } from "../../../../sandbox/market/options/contract.ts";
import { MIN_VEGA_PER_POINT, PRICE_TOLERANCE } from "../../../../sandbox/market/options/pricing.ts";
import { modelSolve, modelValuation } from "../../../../sandbox/market/options/valuation.ts";
import { readRecords, type Row, secMasterByTicker, spread, termsOf } from "./support.ts";

/**
 * The rows a check fails on, each with what it found, for one `expect` over all of them: an
 * `expect` per row and condition costs more than the checks themselves over tens of thousands
 * of rows, and a failure still names every row that broke the rule.
 */
class Violations {
  readonly found: string[] = [];
  check(ok: boolean, what: () => string): void {
    if (!ok) this.found.push(what());
  }
}

const labelOf = (r: Row) => `${r.TradeDate} ${r.Ticker} ${r.CallPut} ${r.Strike} ${r.ExpirationDate}`;
/** A number, as the matchers these checks replace require (a null fails them too). */
const isNum = (x: unknown): x is number => typeof x === "number";
/** `toBeCloseTo(expected, digits)`'s test. */
const closeTo = (actual: unknown, expected: number, digits: number) => isNum(actual) && Math.abs(actual - expected) < 10 ** -digits / 2;
/** Appends `row` to the list under `key`. */
const push = <T>(groups: Map<string, T[]>, key: string, row: T) => {
  const list = groups.get(key);
  if (list) list.push(row);
  else groups.set(key, [row]);
};

describe("opt-greeks-daily, the end-of-day option analytics", () => {
  const rows = readRecords("opt-greeks-daily");
  const master = secMasterByTicker();
  const computed = rows.filter((r) => r.ImpliedVolConvergence === "computed");

  it("reprices every computed contract at its implied vol to its mid, with its style's model", () => {
    expect(computed.length).toBeGreaterThan(10_000);
    const bad = new Violations();
    for (const r of computed) {
      const price = modelSolve(termsOf(r, master), r.MidImpliedVol).price;
      bad.check(
        isNum(r.LastMidPrice) && Math.abs(price - r.LastMidPrice) <= PRICE_TOLERANCE + 1e-6 * r.LastMidPrice + 1e-9,
        () => `${labelOf(r)}: repriced ${price}, mid ${r.LastMidPrice}`,
      );
      bad.check(closeTo(r.MidTheoPrice, price, 9), () => `${labelOf(r)}: MidTheoPrice ${r.MidTheoPrice}, repriced ${price}`);
    }
    expect(bad.found).toEqual([]);
  });

  it("keeps put-call parity within the quotes for the European index root", () => {
    const index = rows.filter((r) => r.OptionStyle === "E");
    expect(new Set(index.map((r) => r.Ticker))).toEqual(new Set(["SPXW"]));
    const puts = new Map(index.filter((r) => r.CallPut === "P").map((r) => [`${r.TradeDate}|${r.ExpirationDate}|${r.Strike}`, r]));
    let pairs = 0;
    for (const c of index.filter((r) => r.CallPut === "C")) {
      const p = puts.get(`${c.TradeDate}|${c.ExpirationDate}|${c.Strike}`)!;
      const t = termsOf(c, master);
      const parity = t.spot * Math.exp(-t.dividendYield * t.years) - t.strike * Math.exp(-t.rate * t.years);
      const halfSpreads = (c.LastAskPrice - c.LastBidPrice + p.LastAskPrice - p.LastBidPrice) / 2;
      expect(Math.abs(c.LastMidPrice - p.LastMidPrice - parity)).toBeLessThanOrEqual(halfSpreads + 1e-9);
      pairs++;
    }
    expect(pairs).toBeGreaterThan(500);
  });

  it("never values an American contract below its European value or its intrinsic value", () => {
    const bad = new Violations();
    for (const r of rows.filter((x) => x.OptionStyle === "A" && x.MidTheoPrice !== null)) {
      const t = termsOf(r, master);
      const intrinsic = intrinsicValue(t);
      bad.check(
        isNum(r.MidTheoPrice) && r.MidTheoPrice >= intrinsic,
        () => `${labelOf(r)}: MidTheoPrice ${r.MidTheoPrice} below intrinsic ${intrinsic}`,
      );
      // The grid's discretisation error (a fraction of a volatility point) is the only allowance.
      const allowance = 0.0015 * bsmValuation(t, r.MidImpliedVol).vega * 100 + 1e-9;
      const european = bsmPrice(t, r.MidImpliedVol);
      bad.check(
        r.MidTheoPrice >= european - allowance,
        () => `${labelOf(r)}: MidTheoPrice ${r.MidTheoPrice} below European ${european} less ${allowance}`,
      );
    }
    expect(bad.found).toEqual([]);
  });

  it("reports Greeks that agree with finite differences of the pricer", () => {
    // Away from expiry and from the early-exercise boundary, where price differences are well conditioned.
    const sample = spread(
      computed.filter((r) => {
        const timeValue = r.MidTheoPrice - intrinsicValue(termsOf(r, master));
        return r.DaysToMaturity >= 5 && r.MidVega > 0.02 && timeValue > 0.05 * r.MidTheoPrice;
      }),
      300,
    );
    expect(sample.length).toBe(300);
    for (const r of sample) {
      const t = termsOf(r, master), vol = r.MidImpliedVol as number;
      const label = `${r.TradeDate} ${r.Ticker} ${r.CallPut} ${r.Strike} ${r.ExpirationDate}`;
      const solve = (patch: object, v = vol) => modelSolve({ ...t, ...patch }, v);
      const p = (patch: object, v = vol) => solve(patch, v).price;
      // Spot bumps of a twentieth of a standard deviation; volatility, rate and time in natural steps.
      const hs = 0.05 * vol * Math.sqrt(t.years) * t.spot, hv = 0.005, hr = 0.001, ht = 1 / 365;
      const fd = {
        delta: (p({ spot: t.spot + hs }) - p({ spot: t.spot - hs })) / (2 * hs),
        gamma: (solve({ spot: t.spot + 2 * hs }).delta - solve({ spot: t.spot - 2 * hs }).delta) / (4 * hs),
        vega: (p({}, vol + hv) - p({}, vol - hv)) / (2 * hv) / 100,
        rho: (p({ rate: t.rate + hr }) - p({ rate: t.rate - hr })) / (2 * hr) / 100,
        theta: -(p({ years: t.years + ht }) - p({ years: t.years - ht })) / (2 * ht) / 365,
      };
      expect(Math.abs(r.MidDelta - fd.delta), label).toBeLessThan(0.005);
      // Gamma is the grid's interpolated second difference (bounded by construction), the check a
      // difference of the grid's Delta over four bumps: two discretisations, 6 % apart at most.
      expect(Math.abs(r.MidGamma - fd.gamma), label).toBeLessThan(0.06 * Math.abs(fd.gamma) + 1e-5);
      expect(Math.abs(r.MidVega - fd.vega), label).toBeLessThan(0.03 * Math.abs(fd.vega) + 1e-4);
      expect(Math.abs(r.MidRho - fd.rho), label).toBeLessThan(0.03 * Math.abs(fd.rho) + 1e-4);
      expect(Math.abs(r.MidTheta - fd.theta), label).toBeLessThan(0.03 * Math.abs(fd.theta) + 1e-4);
    }
  });

  it("sets ImpliedVolConvergence as the numbers dictate, with a realistic share of each", () => {
    const share = (status: string) => rows.filter((r) => r.ImpliedVolConvergence === status).length / rows.length;
    expect(share("computed")).toBeGreaterThan(0.85);
    expect(share("interpolated")).toBeGreaterThan(0.01);
    expect(share("not converged")).toBeGreaterThan(0.001);
    expect(share("not converged")).toBeLessThan(0.02);
    const bad = new Violations();
    for (const r of computed) bad.check(isNum(r.MidVega) && r.MidVega >= MIN_VEGA_PER_POINT, () => `${labelOf(r)}: MidVega ${r.MidVega}`);
    expect(bad.found).toEqual([]);
    for (const r of rows.filter((x) => x.ImpliedVolConvergence === "not converged")) {
      expect([r.MidImpliedVol, r.MidTheoPrice, r.MidDelta, r.MidVega]).toEqual([null, null, null, null]);
    }
  });

  it("interpolates a volatility between the computed strikes either side of it, or takes the out-of-the-money twin's", () => {
    const byGroup = new Map<string, Row[]>();
    for (const r of rows) {
      const key = `${r.TradeDate}|${r.Ticker}|${r.ExpirationDate}|${r.CallPut}`;
      push(byGroup, key, r);
    }
    // Each contract by its key, the first row of a key as a search from the start would find it.
    const contractKey = (r: Row, callPut: string) => `${r.TradeDate}|${r.Ticker}|${r.ExpirationDate}|${r.Strike}|${callPut}`;
    const contracts = new Map<string, Row>();
    for (const r of rows) if (!contracts.has(contractKey(r, r.CallPut))) contracts.set(contractKey(r, r.CallPut), r);
    let checked = 0;
    for (const group of byGroup.values()) {
      const solved = group.filter((r) => r.ImpliedVolConvergence === "computed");
      for (const r of group.filter((x) => x.ImpliedVolConvergence === "interpolated")) {
        const below = solved.filter((s) => s.Strike < r.Strike).at(-1), above = solved.find((s) => s.Strike > r.Strike);
        if (below && above) {
          const w = Math.log(r.Strike / below.Strike) / Math.log(above.Strike / below.Strike);
          expect(r.MidImpliedVol).toBeCloseTo(below.MidImpliedVol + w * (above.MidImpliedVol - below.MidImpliedVol), 12);
        } else {
          // At the edge of the chain, an in-the-money contract takes its out-of-the-money twin's.
          const twin = contracts.get(contractKey(r, r.CallPut === "C" ? "P" : "C"))!;
          expect(intrinsicValue(termsOf(r, master))).toBeGreaterThan(0);
          expect([twin.ImpliedVolConvergence, twin.MidImpliedVol]).toEqual(["computed", r.MidImpliedVol]);
        }
        expect(r.MidTheoPrice).toBeCloseTo(modelValuation(termsOf(r, master), r.MidImpliedVol).price, 9);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("quotes every contract on its tick grid, bid below ask, and prices none on its expiration day", () => {
    const bad = new Violations();
    for (const r of rows) {
      const label = labelOf(r);
      bad.check(isNum(r.LastBidPrice) && r.LastBidPrice >= 0, () => `${label}: bid ${r.LastBidPrice}`);
      bad.check(
        isNum(r.LastAskPrice) && r.LastAskPrice > r.LastBidPrice,
        () => `${label}: ask ${r.LastAskPrice} not above bid ${r.LastBidPrice}`,
      );
      const tick = r.Ticker === "SPXW" || /\d$/.test(r.Ticker) ? 0.05 : 0.01;
      for (const price of [r.LastBidPrice, r.LastAskPrice]) {
        bad.check(Math.abs(price / tick - Math.round(price / tick)) < 1e-6, () => `${label}: ${price} off the ${tick} grid`);
      }
      bad.check(isNum(r.DaysToMaturity) && r.DaysToMaturity >= 1, () => `${label}: DaysToMaturity ${r.DaysToMaturity}`);
      bad.check(
        closeTo(r.YearsToMaturity, r.DaysToMaturity / 365, 12),
        () => `${label}: YearsToMaturity ${r.YearsToMaturity}, DaysToMaturity ${r.DaysToMaturity}`,
      );
      bad.check(
        r.LastBidTime <= r.LastAskTime || r.LastAskTime <= r.LastBidTime,
        () => `${label}: bid time ${r.LastBidTime}, ask time ${r.LastAskTime} not comparable`,
      );
    }
    expect(bad.found).toEqual([]);
  });

  it("shows put skew and an upward-sloping term structure, as equity options usually do", () => {
    const groups = new Map<string, Row[]>();
    for (const r of computed.filter((x) => x.CallPut === "P" && x.OptionStyle === "A" && !/\d$/.test(x.Ticker))) {
      const key = `${r.TradeDate}|${r.Ticker}`;
      push(groups, key, r);
    }
    let skewed = 0, skewChecks = 0, contango = 0, termChecks = 0;
    for (const puts of groups.values()) {
      const spot = puts[0].UnderLastMidPrice as number;
      const nearest = (rows: Row[], strike: number) =>
        rows.reduce((a, b) => (Math.abs(b.Strike - strike) < Math.abs(a.Strike - strike) ? b : a));
      const byExpiry = new Map<string, Row[]>();
      for (const r of puts) push(byExpiry, r.ExpirationDate, r);
      const atm = [...byExpiry.entries()].filter(([, rows]) => rows[0].DaysToMaturity >= 7).map(([, rows]) => nearest(rows, spot));
      if (atm.length >= 2) {
        termChecks++;
        if (atm.at(-1)!.MidImpliedVol > atm[0].MidImpliedVol) contango++;
      }
      for (const rows of byExpiry.values()) {
        if (rows[0].DaysToMaturity < 20 || rows[0].DaysToMaturity > 70) continue;
        const low = nearest(rows, spot * 0.92), mid = nearest(rows, spot);
        if (low.Strike >= mid.Strike) continue;
        skewChecks++;
        if (low.MidImpliedVol > mid.MidImpliedVol) skewed++;
      }
    }
    expect(skewChecks).toBeGreaterThan(50);
    expect(skewed / skewChecks).toBeGreaterThan(0.9);
    expect(termChecks).toBeGreaterThan(40);
    expect(contango / termChecks).toBeGreaterThan(0.7);
  });
});
