/**
 * The day frames hand Polars what it can type cheaply (codes for strings, int64 halves for
 * date-times): the frames must hold exactly the values the plain forms would have given.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { DAILY_BAR_FIELDS } from "../../../sandbox/market/bars/dailyBar.ts";
import { EQ_TAQ_1MIN_COLUMNS, EQ_TAQ_COLUMNS } from "../../../sandbox/market/columns/equities.ts";
import { dailyBarFrame, minuteBarFrame, tickFrame } from "../../../sandbox/market/dayFrames.ts";
import { buildFrame, wholeNumbers } from "../../../sandbox/market/frames.ts";
import { CONDITIONS, EVENT_TYPES, EXCHANGES, type TickColumns } from "../../../sandbox/market/ticks/tickColumns.ts";
import { MINUTES_PER_DAY } from "../../../sandbox/market/ticks/intraday.ts";
import { nyEpochNs } from "../../../calendar/nyTime.ts";

/** Ticks spread over the whole day, the times crossing many 2^32 ns steps (about 4.3 s each). */
function dayOfTicks(n: number): TickColumns {
  const nsOfDay = Float64Array.from({ length: n }, (_, i) => Math.floor((i * 86_399e9) / n) + (i % 7));
  return {
    length: n,
    nsOfDay,
    type: Uint8Array.from({ length: n }, (_, i) => i % EVENT_TYPES.length),
    price: Float64Array.from({ length: n }, (_, i) => 100 + i / 1e4),
    size: Float64Array.from({ length: n }, (_, i) => 1 + (i % 500)),
    exchange: Uint8Array.from({ length: n }, (_, i) => (i * 3) % EXCHANGES.length),
    condition: Uint8Array.from({ length: n }, (_, i) => (i * 5) % CONDITIONS.length),
  };
}

describe("day frames", () => {
  const id = { date: "2023-11-20", ticker: "JPM.PRC", asid: 100007 };

  it("write every tick's New York time as midnight plus its nanoseconds, to the nanosecond", () => {
    const ticks = dayOfTicks(50_000);
    const frame = tickFrame(id, ticks);
    const midnight = nyEpochNs(id.date, 0n);
    // As text: Polars hands int64 to JavaScript as doubles, which would round these.
    const got = frame.getColumn("EventDateTime").cast(pl.Int64).cast(pl.String).toArray() as string[];
    const wrong = got.map((t, i) => [i, t, String(midnight + BigInt(ticks.nsOfDay[i]))] as const).filter(([, t, want]) => t !== want);
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it("spell out the coded columns: event types, exchanges, conditions and the ticker", () => {
    const ticks = dayOfTicks(1000);
    const frame = tickFrame(id, ticks);
    expect(frame.columns).toEqual(EQ_TAQ_COLUMNS.map((c) => c.name));
    const strings = (name: string) => frame.getColumn(name).toArray() as string[];
    expect(strings("EventType")).toEqual(Array.from(ticks.type, (c) => EVENT_TYPES[c]));
    expect(strings("Exchange")).toEqual(Array.from(ticks.exchange, (c) => EXCHANGES[c]));
    expect(strings("ConditionCode")).toEqual(Array.from(ticks.condition, (c) => CONDITIONS[c]));
    expect(new Set(strings("Ticker"))).toEqual(new Set([id.ticker]));
    expect(frame.getColumn("Ticker").dtype.equals(pl.String)).toBe(true);
  });

  it("give each security's minute bars its own ticker and minute times", () => {
    const ids = [{ ...id, ticker: "AAPL", asid: 100001 }, id];
    const bars = ids.map((_, k) =>
      Object.fromEntries(EQ_TAQ_1MIN_COLUMNS.slice(4).map((c) => [c.name, new Float64Array(MINUTES_PER_DAY).fill(k + 1)]))
    );
    const frame = minuteBarFrame(ids, bars).select("Ticker", "BarDateTime", "ASID");
    const tickers = frame.getColumn("Ticker").toArray() as string[];
    expect(tickers.slice(0, MINUTES_PER_DAY)).toEqual(new Array(MINUTES_PER_DAY).fill("AAPL"));
    expect(tickers.slice(MINUTES_PER_DAY)).toEqual(new Array(MINUTES_PER_DAY).fill("JPM.PRC"));
    const times = (frame.getColumn("BarDateTime").cast(pl.Int64).cast(pl.String).toArray() as string[]).map(BigInt);
    const first = nyEpochNs(id.date, 4n * 3_600_000_000_000n);
    expect(times[0]).toBe(first);
    expect(times[MINUTES_PER_DAY - 1]).toBe(first + BigInt(MINUTES_PER_DAY - 1) * 60_000_000_000n);
    expect(times[MINUTES_PER_DAY]).toBe(first);
  });

  it("keep every daily bar's own values, row by row", () => {
    const ids = ["AAPL", "JPM", "JPM.PRC"].map((ticker, k) => ({ date: id.date, ticker, asid: 100001 + k }));
    // Volumes whole (int64 columns), prices fractional: the kinds of value the fault mixed up.
    const volume = (f: number) => f >= 4 && f < 8;
    const bars = ids.map((_, k) => Float64Array.from(DAILY_BAR_FIELDS, (_, f) => (volume(f) ? 1000 * (k + 1) + f : 10 * (k + 1) + f / 10)));
    const frame = dailyBarFrame(ids, bars);
    for (const [f, name] of DAILY_BAR_FIELDS.entries()) {
      expect((frame.getColumn(name).toArray() as unknown[]).map(Number), name).toEqual(bars.map((b) => b[f]));
    }
  });

  it("refuses a code with no label, naming the column, the code and the labels", () => {
    const schema = [{ name: "Exchange", type: "string" as const, description: "", nullable: false }];
    expect(() => buildFrame(schema, { Exchange: { codes: Uint8Array.of(0, 11), labels: EXCHANGES } }))
      .toThrow(/Column 'Exchange' has code 11 at row 1: codes must be 0 to 10, one per label \(Q, N, /);
  });

  it("repeat a constant over every row, typed by the schema (the tick file's date, ticker and ASID)", () => {
    const ticks = dayOfTicks(700);
    const frame = tickFrame(id, ticks);
    expect(frame.height).toBe(700);
    expect(frame.getColumn("TradeDate").dtype.equals(pl.Date)).toBe(true);
    expect(new Set(frame.getColumn("TradeDate").cast(pl.String).toArray())).toEqual(new Set([id.date]));
    expect(frame.getColumn("ASID").dtype.equals(pl.Int64)).toBe(true);
    expect(new Set((frame.getColumn("ASID").toArray() as unknown[]).map(Number))).toEqual(new Set([id.asid]));
    expect(frame.getColumn("Ticker").toArray()).toEqual(new Array(700).fill(id.ticker));
    expect(tickFrame(id, dayOfTicks(0)).height).toBe(0);
  });

  it("keep share counts exact whether they arrive as int32 or, past int32, as doubles", () => {
    const ticks = dayOfTicks(5);
    expect(wholeNumbers(ticks.size)).toBeInstanceOf(Int32Array);
    const big = Float64Array.of(1, 2 ** 31, 3), fractional = Float64Array.of(1, 2.5), empty = Float64Array.of(1, NaN);
    expect([big, fractional, empty].map((v) => wholeNumbers(v) === v)).toEqual([true, true, true]);
    ticks.size.set(big.subarray(0, 3));
    const quantity = tickFrame(id, ticks).getColumn("Quantity");
    expect(quantity.dtype.equals(pl.Int64)).toBe(true);
    expect((quantity.cast(pl.String).toArray() as string[]).slice(0, 3)).toEqual(["1", "2147483648", "3"]);
    expect((tickFrame(id, dayOfTicks(3)).getColumn("Quantity").toArray() as unknown[]).map(Number)).toEqual([1, 2, 3]);
  });

  it("refuses a frame of constants only, and an Int32Array for a column that is not int64 or a date", () => {
    const schema = [{ name: "Ticker", type: "string" as const, description: "", nullable: false }];
    expect(() => buildFrame(schema, { Ticker: { constant: "AAPL" } })).toThrow(/Columns Ticker are all constants/);
    const price = [{ name: "Price", type: "float64" as const, description: "", nullable: false }];
    expect(() => buildFrame(price, { Price: Int32Array.of(1) })).toThrow(/Column 'Price' of type float64 was given an Int32Array/);
    expect(() => buildFrame(price, { Price: { base: 0n, offsets: Float64Array.of(1) } })).toThrow(
      /Column 'Price' of type float64 was given offset times/,
    );
  });
});
