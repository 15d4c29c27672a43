/**
 * frameHash, in both schemes (`rows`, the default, and `canonical`): equal for the same rows
 * however they were fetched (CSV, JSON, gzip-compressed CSV, any page size, any concurrency)
 * through the real sandbox, different for any change of value, dtype, name, column order or
 * row order, and equal to the documented encodings.
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { frameHash, hashScheme } from "../../../workbench/mod.ts";
import { sandboxWorkbench } from "../research/support/sandboxWorkbench.ts";

const connected = sandboxWorkbench();

const WAYS = [
  { format: "csv", pageSize: 100000, concurrency: 1 },
  { format: "json", pageSize: 100000, concurrency: 1 },
  { format: "csv_gzip", pageSize: 100000, concurrency: 1 },
  { format: "csv", pageSize: 97, concurrency: 4 },
  { format: "json", pageSize: 250, concurrency: 3 },
  { format: "csv_gzip", pageSize: 333, concurrency: 1 },
] as const;

describe("the same rows hash the same however they were fetched", () => {
  it("minute bars (date-times in ns, nulls in trade fields) in every format, page size and concurrency", async () => {
    const hashes = new Set<string>();
    let height = 0;
    for (const way of WAYS) {
      const bars = await connected.wb.data.eqTaq1Min("ODFL", { filters: { TradeDate: "2023-11-22" }, sort: "BarDateTime", ...way });
      height = bars.height;
      expect(bars.getColumn("FirstTradePrice").nullCount()).toBeGreaterThan(0);
      hashes.add(`${frameHash(bars)} ${frameHash(bars, { scheme: "canonical" })}`);
    }
    expect(height).toBe(960);
    expect([...hashes]).toHaveLength(1);
    expect([...hashes][0]).toMatch(/^rows:[0-9a-f]{64} sha256:[0-9a-f]{64}$/);
  });

  it("ticks, the security master (lists of text) and the lookup file (dates) in every format", async () => {
    for (
      const fetch of [
        // ticks: a ticker-day holds thousands, so their pages are ten times larger (still
        // several pages each); HES rather than the market's busiest ticker, whose hundred
        // thousand ticks fetched six ways showed nothing more at many times the cost
        (way: { pageSize: number }) =>
          connected.wb.data.eqTaq("2023-11-21", "HES", { sort: "EventDateTime", ...way, pageSize: Math.min(100000, way.pageSize * 10) }),
        (way: { pageSize: number }) => connected.wb.data.optSecMaster({ sort: "ASID", ...way }),
        (way: { pageSize: number }) => connected.wb.data.eqLookupFiles({ sort: ["Ticker", "EndDate"], ...way }),
      ]
    ) {
      const hashes = new Set<string>();
      for (const way of WAYS) {
        const frame = await fetch(way);
        hashes.add(`${frameHash(frame)} ${frameHash(frame, { scheme: "canonical" })}`);
      }
      expect([...hashes]).toHaveLength(1);
    }
  });
});

describe("any change changes the hash", () => {
  const base = () =>
    pl.DataFrame([
      pl.Series("Ticker", ["AAPL", "MSFT", null], pl.String),
      pl.Series("Volume", [100, 0, 7], pl.Int64),
      pl.Series("Price", [1.5, null, -2.25], pl.Float64),
      pl.Series("TradeDate", [new Date("2023-11-21"), new Date("2023-11-22"), new Date("2023-11-24")], pl.Date),
      pl.Series("At", [1_700_000_000_000, 1_700_000_060_000, null], pl.Datetime("ms", "America/New_York")),
    ]);
  const h = base();
  // (nodejs-polars reads bigint literals given with an explicit Int64 dtype as nulls: numbers here)
  const variants: Record<string, pl.DataFrame> = {
    "a value": h.withColumns(pl.when(pl.col("Volume").eq(7)).then(pl.lit(8)).otherwise(pl.col("Volume")).cast(pl.Int64).alias("Volume")),
    "a float by one bit": h.withColumns(pl.Series("Price", [1.5000000000000002, null, -2.25], pl.Float64)),
    "a null for a zero": h.withColumns(pl.Series("Volume", [100, null, 7], pl.Int64)),
    "an empty text for a null": h.withColumns(pl.Series("Ticker", ["AAPL", "MSFT", ""], pl.String)),
    "a dtype (Int64 to Float64)": h.withColumns(pl.col("Volume").cast(pl.Float64)),
    "a date-time's unit": h.withColumns(pl.col("At").cast(pl.Datetime("ns", "America/New_York"))),
    "a date-time's zone (same instants)": h.withColumns(pl.col("At").dt.convertTimeZone("UTC")),
    "a column name": h.rename({ Volume: "Size" }),
    "the column order": h.select("Volume", "Ticker", "Price", "TradeDate", "At"),
    "the row order": h.reverse(),
    "a row fewer": h.head(2),
    "text moved between rows": h.withColumns(pl.Series("Ticker", ["AAPLM", "SFT", null], pl.String)),
  };
  for (const scheme of ["rows", "canonical"] as const) {
    for (const [change, frame] of Object.entries(variants)) {
      it(`changing ${change} (${scheme})`, () => {
        expect(frameHash(frame, { scheme })).not.toBe(frameHash(h, { scheme }));
      });
    }

    it(`equal frames built apart hash the same, and every NaN hashes as one NaN (${scheme})`, () => {
      expect(frameHash(base(), { scheme })).toBe(frameHash(h, { scheme }));
      const nan1 = pl.DataFrame([pl.Series("x", [NaN, 1], pl.Float64)]);
      const nan2 = pl.DataFrame([pl.Series("x", [0, 1], pl.Float64)]).select(
        pl.when(pl.col("x").eq(0)).then(pl.lit(0).div(pl.lit(0))).otherwise(pl.col("x")).alias("x"),
      );
      expect(Number.isNaN(nan2.getColumn("x").get(0))).toBe(true);
      expect(frameHash(nan2, { scheme })).toBe(frameHash(nan1, { scheme }));
    });
  }

  it("the same rows chunked apart (as pages arrive) hash the same", () => {
    const chunked = pl.concat([h.slice(0, 1), h.slice(1, 1)], { rechunk: false, how: "vertical" });
    expect(frameHash(chunked)).toBe(frameHash(h.head(2)));
  });

  it("refuses a dtype outside the canonical encoding, naming the column, and an unknown scheme", () => {
    const df = pl.DataFrame([pl.Series("t", [1, 2], pl.Time)]);
    expect(() => frameHash(df, { scheme: "canonical" })).toThrow(/column 't' of dtype Time/);
    expect(() => frameHash(df, { scheme: "md5" as "rows" })).toThrow(/scheme 'md5' is unknown: use "rows" \(the default\) or "canonical"/);
  });
});

describe("the documented encoding", () => {
  it("matches SHA-256 of the bytes the documentation describes, written out by hand", () => {
    const df = pl.DataFrame([
      pl.Series("n", [1, null], pl.Int64),
      pl.Series("s", ["é", "x"], pl.String),
      pl.Series("t", [1_000, 2_000], pl.Datetime("ms", "UTC")),
    ]);
    const u32 = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
    const u64 = (n: bigint) => Buffer.from(BigUint64Array.of(n).buffer);
    const i64 = (...n: bigint[]) => Buffer.from(BigInt64Array.of(...n).buffer);
    const txt = (s: string) => Buffer.concat([u32(Buffer.byteLength(s)), Buffer.from(s)]);
    const bytes = Buffer.concat([
      Buffer.from("market-workbench frameHash v1\n"),
      u64(2n),
      u64(3n),
      txt("n"),
      txt("Int64"),
      u64(1n),
      Buffer.from([1, 0]),
      i64(1n, 0n),
      txt("s"),
      txt("String"),
      u64(0n),
      u32(2),
      u32(1),
      Buffer.from("éx"),
      txt("t"),
      txt("Datetime(ms,UTC)"),
      u64(0n),
      i64(1_000_000_000n, 2_000_000_000n),
    ]);
    expect(frameHash(df, { scheme: "canonical" })).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
  });

  it("rows: SHA-256 of the header, names, dtypes and Polars' row hashes, as rowHashes.ts describes", () => {
    const df = pl.DataFrame([pl.Series("n", [1, null], pl.Int64), pl.Series("s", ["é", "x"], pl.String)]);
    const u32 = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
    const u64 = (n: bigint) => Buffer.from(BigUint64Array.of(n).buffer);
    const txt = (s: string) => Buffer.concat([u32(Buffer.byteLength(s)), Buffer.from(s)]);
    const rowHashes = df.hashRows(0x6d61726b, 0x65742d77, 0x6f726b62, 0x656e6368).toTypedArray() as BigUint64Array;
    const bytes = Buffer.concat([
      Buffer.from("market-workbench frameHash rows/1\n"),
      u64(2n),
      u64(2n),
      txt("n"),
      txt("Int64"),
      txt("s"),
      txt("String"),
      Buffer.from(rowHashes.buffer, rowHashes.byteOffset, rowHashes.byteLength),
    ]);
    expect(frameHash(df)).toBe(`rows:${createHash("sha256").update(bytes).digest("hex")}`);
    expect(hashScheme()).toEqual({
      scheme: "rows/1",
      nodejsPolars: JSON.parse(readFileSync("node_modules/nodejs-polars/package.json", "utf8")).version,
    });
  });
});
