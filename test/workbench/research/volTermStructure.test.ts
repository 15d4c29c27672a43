/**
 * The term-structure helpers against hand-worked cases: the ATM-forward vol (linear in
 * log-moneyness), the 50-delta vol (linear in forward delta), constant maturity (linear in total
 * variance), the calendar-arbitrage check; then a whole greeks frame priced by Black-Scholes-
 * Merton with a known carry and a flat vol, from which the forward, both vols and the notes
 * must come back; and the sandbox's tiny market, whose option model's dividend yields
 * (sandbox/market/ticks/dividends.ts: the test may look, the workbench may not) the carry recovers.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import {
  atmForwardVol,
  blackScholesCall,
  calendarArbitrage,
  constantMaturityVol,
  constantMaturityVols,
  expiryForwards,
  fiftyDeltaVol,
  nearestSpotStrikeVol,
  otmSmile,
  QueryError,
  volTermStructure,
} from "../../../workbench/mod.ts";
import { dividendYield } from "../../../sandbox/market/ticks/dividends.ts";
import { sandboxWorkbench } from "./support/sandboxWorkbench.ts";

const day = (d: string) => new Date(`${d}T00:00:00Z`);

describe("points of a smile", () => {
  it("ATM-forward vol: 25% at 100 and 22% at 105 around F = 102, linear in ln(K/F), is 23.7824%", () => {
    // w = −ln(100/102) / (ln(105/102) − ln(100/102)) = 0.40587; 0.25 − 0.03·w
    expect(atmForwardVol([{ strike: 100, vol: 0.25 }, { strike: 105, vol: 0.22 }], 102)).toBeCloseTo(0.23782379955061525, 14);
    expect(atmForwardVol([{ strike: 100, vol: 0.25 }, { strike: 105, vol: 0.22 }], 106)).toBeNull();
    expect(atmForwardVol([{ strike: 100, vol: 0.25 }], 100)).toBe(0.25);
  });

  it("50-delta vol: deltas 0.5398 (K 100, 20%) and 0.4556 (K 104, 19%) at F 100 over a year give 19.527%", () => {
    // N(0.1) = 0.539828; N(ln(100/104)/0.19 + 0.095) = 0.455640; 0.2 − 0.01·(0.5 − 0.539828)/(0.455640 − 0.539828)
    expect(fiftyDeltaVol([{ strike: 100, vol: 0.2 }, { strike: 104, vol: 0.19 }], 100, 1)).toBeCloseTo(0.19526918401012422, 12);
    expect(fiftyDeltaVol([{ strike: 80, vol: 0.3 }, { strike: 90, vol: 0.25 }], 100, 1)).toBeNull();
  });

  it("takes the out-of-the-money side of each strike, computed vols only, and the old 'nearest the spot' mean", () => {
    const c = (call: boolean, strike: number, vol: number | null, computed = true) => ({ call, strike, mid: 1, vol, computed });
    const chain = [
      c(false, 95, 0.25),
      c(true, 95, 0.3),
      c(false, 100, 0.22),
      c(true, 100, 0.2),
      c(true, 105, 0.19, false),
      c(true, 110, 0.18),
    ];
    expect(otmSmile(chain, 100)).toEqual([{ strike: 95, vol: 0.25 }, { strike: 100, vol: 0.2 }, { strike: 110, vol: 0.18 }]);
    expect(nearestSpotStrikeVol(chain, 101)).toBeCloseTo(0.21, 15);
  });
});

describe("constant maturity and calendar arbitrage", () => {
  const points = [{ days: 20, years: 20 / 365, vol: 0.2 }, { days: 40, years: 40 / 365, vol: 0.25 }];

  it("interpolates total variance: 20 days at 20% and 40 at 25% give 30 days at √0.055 = 23.452%", () => {
    // w20 = 0.04·20/365, w40 = 0.0625·40/365, w30 = (0.8 + 2.5)/2/365; σ30 = √(w30 / (30/365))
    const m = constantMaturityVol(points, 30);
    expect(m.vol).toBeCloseTo(0.2345207879911715, 14);
    expect([m.fromDays, m.toDays, m.note]).toEqual([20, 40, null]);
    expect(constantMaturityVol(points, 40).vol).toBe(0.25);
  });

  it("does not extrapolate, and says so", () => {
    expect(constantMaturityVol(points, 10)).toMatchObject({
      vol: null,
      note: "shorter than the nearest expiry with a vol (20 days): not extrapolated",
    });
    expect(constantMaturityVol(points, 91)).toMatchObject({
      vol: null,
      note: "longer than the farthest expiry with a vol (40 days): not extrapolated",
    });
    expect(constantMaturityVol([], 30).note).toBe("no expiry has a vol");
  });

  const term = (vols: number[], days: number[]) =>
    pl.DataFrame([
      pl.Series("TradeDate", days.map(() => day("2024-01-10")), pl.Date),
      pl.Series("Ticker", days.map(() => "TEST"), pl.String),
      pl.Series("DaysToExpiry", days, pl.Int32),
      pl.Series("YearsToExpiry", days.map((d) => d / 365), pl.Float64),
      pl.Series("AtmForwardVolPct", vols, pl.Float64),
    ]);

  it("flags a fall in total variance and gives the forward vol between expiries: 20% → 25% from 20 to 40 days is 29.155%", () => {
    const check = calendarArbitrage(term([20, 25, 17], [20, 40, 60])).toRecords();
    expect(check.map((r) => r.Arbitrage)).toEqual([false, true]);
    expect(check[0].ForwardVolPct).toBeCloseTo(29.1547594742265, 11); // √((2.5 − 0.8)/20)
    expect(check[1].ForwardVolPct).toBeNull(); // 0.0289·60 < 0.0625·40
    const cm = constantMaturityVols(term([20, 25, 17], [20, 40, 60]), [30]).toRecords();
    expect(cm[0].VolPct).toBeCloseTo(23.45207879911715, 11);
    expect(() => constantMaturityVols(term([20], [20]), [0])).toThrow(QueryError);
  });
});

describe("a greeks frame priced with a known carry and a flat 25% vol", () => {
  const [S, r, q, vol] = [200, 0.053, 0.012, 0.25];
  const rows: Record<string, unknown>[] = [];
  for (const [expiry, days] of [["2024-01-10", 0], ["2024-02-09", 30], ["2024-07-08", 180]] as const) {
    for (let K = 170; K <= 240; K += 5) {
      const terms = { spot: S, strike: K, years: days / 365, rate: r, dividendYield: q };
      const call = days > 0 ? blackScholesCall(terms, vol) : Math.max(S - K, 0);
      const put = days > 0 ? call - S * Math.exp(-q * terms.years) + K * Math.exp(-r * terms.years) : Math.max(K - S, 0);
      for (const [cp, mid] of [["C", call], ["P", put]] as const) {
        rows.push({
          TradeDate: day("2024-01-10"),
          Ticker: "TEST",
          CallPut: cp,
          Strike: K,
          ExpirationDate: day(expiry),
          UnderLastMidPrice: S,
          LastMidPrice: mid,
          MidImpliedVol: days > 0 ? vol : null,
          ImpliedVolConvergence: days > 0 ? "computed" : "not converged",
        });
      }
    }
  }
  const greeks = pl.readRecords(rows);

  it("recovers the carry's forward S·e^((r − q)T) both ways (European parity is exact here)", () => {
    const f = expiryForwards(greeks, { rate: r }).toRecords();
    expect(f.map((x) => x.DaysToExpiry)).toEqual([0, 30, 180]);
    for (const x of f.slice(1)) {
      const exact = S * Math.exp((r - q) * Number(x.YearsToExpiry));
      expect(x.DividendYieldPct as number).toBeCloseTo(1.2, 8);
      expect(x.ForwardUsd as number).toBeCloseTo(exact, 6);
      expect(x.ParityForwardUsd as number).toBeCloseTo(exact, 9);
      expect(x.Note).toBeNull();
    }
    expect(f[0]).toMatchObject({ ForwardUsd: null, Note: "expires on the trade date: no time value left to imply a forward" });
  });

  it("gives 25% at the forward and at 50 delta, the total variance σ²T, and a note for the same-day expiry", () => {
    const t = volTermStructure(greeks, { rate: r }).toRecords();
    for (const x of t.slice(1)) {
      expect(x.AtmForwardVolPct as number).toBeCloseTo(25, 10);
      expect(x.FiftyDeltaVolPct as number).toBeCloseTo(25, 10);
      expect(x.AtmTotalVariance as number).toBeCloseTo(0.0625 * Number(x.YearsToExpiry), 12);
    }
    expect(t[0]).toMatchObject({
      AtmForwardVolPct: null,
      NearestSpotStrikeVolPct: null,
      Note: "expires on the trade date: no time value left to imply a forward",
    });
  });

  it("names the columns a frame lacks", () => {
    expect(() => volTermStructure(greeks.drop("MidImpliedVol"), { rate: r })).toThrow(/lacks MidImpliedVol/);
    expect(() => expiryForwards(greeks, { rate: Number.NaN })).toThrow(QueryError);
  });
});

describe("on the sandbox's tiny market", () => {
  const connected = sandboxWorkbench();

  it("the carry AAPL's and CVX's calls imply is the dividend yield the market's option model used", async () => {
    for (const [ticker, asid] of [["AAPL", 100001], ["CVX", 100012]] as const) {
      const greeks = await connected.wb.data.optGreeksDaily({ filters: { Ticker: ticker, TradeDate: "2023-11-21" } });
      const f = expiryForwards(greeks, { rate: 0.053 }).filter(pl.col("DaysToExpiry").lt(120));
      expect(f.height).toBeGreaterThan(2);
      for (const y of f.getColumn("DividendYieldPct").toArray() as number[]) expect(y).toBeCloseTo(dividendYield(asid) * 100, 1);
    }
  });
});
