import { describe, expect, it } from "vitest";
import { readManifest } from "../support/market.ts";
import { readRecords, type Row, successions, wallClock } from "./support.ts";

const contractKey = (r: Row) => `${r.ExpirationDate}|${r.Strike}|${r.CallPut}`;

describe("opt-open-interest", () => {
  const rows = readRecords("opt-open-interest");
  const greeks = readRecords("opt-greeks-daily");
  const days = readManifest().tradingDays.map((d) => d.date);
  const byRootDay = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const k = `${r.Ticker}|${r.TradeDate}`;
    if (!byRootDay.has(k)) byRootDay.set(k, new Map());
    byRootDay.get(k)!.set(contractKey(r), r.OpenInterest);
  }

  it("reports whole, non-negative open interest, published early on the trade date with milliseconds", () => {
    for (const r of rows) {
      expect(Number.isInteger(r.OpenInterest) && r.OpenInterest >= 0).toBe(true);
      expect(r.ExpirationDate >= r.TradeDate).toBe(true);
    }
    for (const r of rows.filter((_, i) => i % 997 === 0)) {
      expect(wallClock(r.EventDateTime) >= "06:30" && wallClock(r.EventDateTime) < "07:00").toBe(true);
      expect(new Date(r.EventDateTime).toISOString().slice(0, 10)).toBe(r.TradeDate);
    }
    expect(rows.some((r) => new Date(r.EventDateTime).getMilliseconds() !== 0)).toBe(true);
  });

  it("lists a contract every day until its expiration day, then never again", () => {
    const handOver = successions(readManifest());
    for (const [key, contracts] of byRootDay) {
      const [root, date] = key.split("|");
      const tomorrow = days[days.indexOf(date) + 1];
      if (!tomorrow) continue;
      // On a corporate action's date the contracts continue under the successor root.
      const successor = handOver.find((s) => s.from === root && s.date === tomorrow)?.to ?? root;
      const next = byRootDay.get(`${successor}|${tomorrow}`) ?? new Map();
      for (const [contract] of contracts) {
        const expiry = contract.split("|")[0];
        expect(next.has(contract), `${root} ${contract} after ${date}`).toBe(expiry > date);
      }
    }
  });

  it("covers every contract opt-greeks-daily values", () => {
    for (const g of greeks) expect(byRootDay.get(`${g.Ticker}|${g.TradeDate}`)?.has(contractKey(g))).toBe(true);
  });

  it("clusters on round strikes and on monthly expiries", () => {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // SPY lists $1 strikes near the money on purpose (dense, and each well held), so it is left out.
    const last = rows.filter((r) => r.TradeDate === days.at(-1) && r.Strike >= 25 && /^[A-Z]+$/.test(r.Ticker) && r.Ticker !== "SPY");
    const round = last.filter((r) => r.Strike % 5 === 0).map((r) => r.OpenInterest);
    const between = last.filter((r) => r.Strike % 5 !== 0).map((r) => r.OpenInterest);
    expect(mean(round) / mean(between)).toBeGreaterThan(10);
    const thirdFriday = (d: string) => Number(d.slice(8)) >= 15 && Number(d.slice(8)) <= 21;
    const monthly = last.filter((r) => thirdFriday(r.ExpirationDate)).map((r) => r.OpenInterest);
    const weekly = last.filter((r) => !thirdFriday(r.ExpirationDate)).map((r) => r.OpenInterest);
    expect(mean(monthly) / mean(weekly)).toBeGreaterThan(3);
  });

  it("evolves from day to day: persistent, many contracts unchanged, the rest changing", () => {
    let pairs = 0, changed = 0, sumRatio = 0;
    for (const [key, contracts] of byRootDay) {
      const [root, date] = key.split("|");
      const next = byRootDay.get(`${root}|${days[days.indexOf(date) + 1]}`);
      for (const [contract, oi] of contracts) {
        const tomorrow = next?.get(contract);
        if (tomorrow === undefined || oi < 1000) continue;
        pairs++;
        if (tomorrow !== oi) changed++;
        sumRatio += Math.abs(Math.log((tomorrow + 1) / (oi + 1)));
      }
    }
    expect(pairs).toBeGreaterThan(1000);
    // A contract nobody trades that day keeps its open interest exactly (about 45% of days).
    expect(changed / pairs).toBeGreaterThan(0.4);
    expect(changed / pairs).toBeLessThan(0.7);
    expect(sumRatio / pairs).toBeLessThan(0.2);
  });

  it("moves open interest to the adjusted or renamed root on a corporate action's date", () => {
    for (const { from, to, date } of successions(readManifest())) {
      const before = byRootDay.get(`${from}|${days[days.indexOf(date) - 1]}`)!;
      const after = byRootDay.get(`${to}|${date}`)!;
      const survivors = [...before.keys()].filter((c) => c.split("|")[0] >= date);
      expect([...after.keys()].sort(), `${from} -> ${to}`).toEqual(survivors.sort());
      // A root that goes on (after a split) starts again with new listings, open interest 0.
      expect([...(byRootDay.get(`${from}|${date}`)?.values() ?? [])].every((oi) => oi === 0), `${from} starts afresh`).toBe(true);
    }
  });
});
