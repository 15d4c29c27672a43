/**
 * What a notebook shows for a frame (shape, dtypes, New York wall clock, nulls, truncation,
 * escaping, list columns), what `installDisplay` changes, and the entitlements card with the
 * answers of `may()` and `explain()`.
 */
import { JSDOM } from "jsdom";
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { describe as describeFrame, entitlementCard, explain, frameBundle, installDisplay, richBundle } from "../../kernel-helpers/mod.ts";
import { type AccessRule, Entitlements, type Estimate, type Quotas, ValidationError } from "../../workbench/mod.ts";
import { displayAs } from "../../workbench/display/kind.ts";
import { dates, newYorkTimes } from "./support/chartFrames.ts";

const DISPLAY = Symbol.for("Jupyter.display");
type Bundle = Record<string, string>;
const bundleOf = (value: unknown) => (value as Record<symbol, () => Bundle>)[DISPLAY]();
const table = (html: string) => new JSDOM(html).window.document;

/** Two rows as the workbench types them: Date, Datetime(ns, New York), text, a null, exact Int64, a list. */
const trades = () =>
  pl.DataFrame([
    dates("TradeDate", ["2023-11-21", "2023-07-03"]),
    newYorkTimes("EventDateTime", ["2023-11-21T14:30:00Z", "2023-07-03T13:30:00.000Z"]),
    pl.Series("Ticker", ["AAPL", `<b>&"x"`]),
    pl.Series("Price", [190.64, null], pl.Float64),
    pl.Series("Size", ["9007199254740993", "-1"]).cast(pl.Int64),
    pl.Series("Universe", [["AAPL", "MSFT"], []], pl.List(pl.String)),
  ]);

const cellsOf = (html: string) =>
  [...table(html).querySelectorAll("tbody tr:not(.wb-gap)")].map((tr) => [...tr.children].map((td) => td.textContent));

describe("frameBundle", () => {
  it("heads the table with the shape and each column's compact dtype", () => {
    const bundle = frameBundle(trades());
    const doc = table(String(bundle["text/html"]));
    expect(doc.querySelector(".wb-shape")!.textContent).toBe("2 rows × 6 columns");
    expect([...doc.querySelectorAll("th")].map((th) => th.textContent)).toEqual([
      "TradeDatedate",
      "EventDateTimedatetime[ns, America/New_York]",
      "Tickerstr",
      "Pricef64",
      "Sizei64",
      "Universelist[str]",
    ]);
    expect(String(bundle["text/plain"]).split("\n").slice(0, 3).map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ["2 rows × 6 columns"],
      ["TradeDate", "EventDateTime", "Ticker", "Price", "Size", "Universe"],
      ["date", "datetime[ns, America/New_York]", "str", "f64", "i64", "list[str]"],
    ]);
    expect(frameBundle(pl.DataFrame({ x: [1] }))["text/plain"]).toMatch(/^1 row × 1 column\n/);
  });

  it("shows instants as New York wall clock (EST and EDT) without trailing zero nanoseconds and the zone only in the header", () => {
    const cells = cellsOf(String(frameBundle(trades())["text/html"]));
    expect(cells[0].slice(0, 2)).toEqual(["2023-11-21", "2023-11-21 09:30"]);
    expect(cells[1].slice(0, 2)).toEqual(["2023-07-03", "2023-07-03 09:30"]);
    expect(String(frameBundle(trades())["text/plain"])).not.toMatch(/\.000|EST|EDT/);
  });

  it("cuts a time column to the finest unit any of its values uses", () => {
    const column = (utc: string[]) => cellsOf(String(frameBundle(pl.DataFrame([newYorkTimes("t", utc)]))["text/html"])).map((r) => r[0]);
    expect(column(["2023-11-21T14:30:00Z", "2023-11-21T14:31:00Z"])).toEqual(["2023-11-21 09:30", "2023-11-21 09:31"]);
    expect(column(["2023-11-21T14:30:00Z", "2023-11-21T14:30:07Z"])).toEqual(["2023-11-21 09:30:00", "2023-11-21 09:30:07"]);
    expect(column(["2023-11-21T14:30:00Z", "2023-11-21T14:30:00.120Z"])).toEqual(["2023-11-21 09:30:00.000", "2023-11-21 09:30:00.120"]);
    const ns = pl.DataFrame([pl.Series("t", ["1700577000000001234"]).cast(pl.Int64).cast(pl.Datetime("ns"))]).select(
      pl.col("t").dt.replaceTimeZone("UTC").dt.convertTimeZone("America/New_York"),
    );
    expect(cellsOf(String(frameBundle(ns)["text/html"]))[0][0]).toBe("2023-11-21 09:30:00.000001234");
  });

  it("shows other time units and zones in their own zone, the zone named in the header", () => {
    const t = pl.DataFrame([pl.Series("t", [new Date("2023-11-21T14:30:00.123Z")], pl.Datetime("ms"))]);
    const frame = t.withColumns(
      pl.col("t").cast(pl.Datetime("us")).alias("naive_us"),
      pl.col("t").dt.replaceTimeZone("UTC").alias("utc_ms"),
    );
    const html = String(frameBundle(frame)["text/html"]);
    expect(cellsOf(html)[0]).toEqual(["2023-11-21 14:30:00.123", "2023-11-21 14:30:00.123", "2023-11-21 14:30:00.123"]);
    expect([...table(html).querySelectorAll(".wb-dtype")].map((s) => s.textContent)).toEqual([
      "datetime[ms]",
      "datetime[us]",
      "datetime[ms, UTC]",
    ]);
  });

  it("prints each float column with the decimals its most precise value needs (at most six, the same in every row), and thousands separators", () => {
    const frame = pl.DataFrame([
      pl.Series("price", [190.64, 4512.2575, 0.1 + 0.2], pl.Float64),
      pl.Series("volume", [7_000_000, 1234567.25, 12], pl.Float64),
      pl.Series("tiny", [1e-9, 0.5, Number.NaN], pl.Float64),
      pl.Series("big", ["9007199254740993", "-1234", "0"]).cast(pl.Int64),
      pl.Series("third", [1 / 3, 2, 999_999_999.5], pl.Float64),
      pl.Series("f32", [190.64, 174.41, 1.5], pl.Float32),
    ]);
    expect(cellsOf(String(frameBundle(frame)["text/html"]))).toEqual([
      ["190.6400", "7,000,000.00", "1e-9", "9,007,199,254,740,993", "0.333333", "190.64"],
      ["4,512.2575", "1,234,567.25", "0.5", "-1,234", "2.000000", "174.41"],
      ["0.3000", "12.00", "NaN", "0", "999,999,999.500000", "1.50"],
    ]);
  });

  it("prints a float column of whole numbers without decimals", () => {
    const frame = pl.DataFrame([pl.Series("shares", [959, 1_234_567, 0], pl.Float64)]);
    expect(cellsOf(String(frameBundle(frame)["text/html"])).map((r) => r[0])).toEqual(["959", "1,234,567", "0"]);
  });

  it("writes identifier columns (ASID, SecId, *_id) without thousands separators", () => {
    const frame = pl.DataFrame([
      pl.Series("ASID", [100001], pl.Int64),
      pl.Series("UnderSecId", [100013], pl.Int64),
      pl.Series("identity_id", [12345], pl.Int64),
      pl.Series("Volume", [100001], pl.Int64),
    ]);
    expect(cellsOf(String(frameBundle(frame)["text/html"]))).toEqual([["100001", "100013", "12345", "100,001"]]);
  });

  it("aligns text left and numbers and times right", () => {
    const html = String(frameBundle(trades())["text/html"]);
    const classes = [...table(html).querySelector("tbody tr")!.children].map((td) => td.className);
    expect(classes).toEqual(["wb-r", "wb-r", "wb-l", "wb-r", "wb-r", "wb-l"]);
    expect(html).toMatch(/td\.wb-l\{text-align:left\}/);
    expect(String(frameBundle(trades())["text/plain"]).split("\n")[3]).toMatch(/^2023-11-21\s+2023-11-21 09:30 {2}AAPL {5}/);
  });

  it("marks nulls, escapes HTML in values and names, and shows list columns as arrays", () => {
    const frame = trades().rename({ Ticker: "<Ticker>" });
    const html = String(frameBundle(frame)["text/html"]);
    const row2 = table(html).querySelectorAll("tbody tr")[1];
    expect(row2.querySelector(".wb-null")!.textContent).toBe("null");
    expect(html).toContain(">&lt;b&gt;&amp;&quot;x&quot;</td>");
    expect(html).toContain("&lt;Ticker&gt;");
    expect(html).not.toContain("<b>&");
    expect(html).toContain(">[&quot;AAPL&quot;,&quot;MSFT&quot;]</td><");
    expect(html).toContain(">[]</td>");
    expect(String(frameBundle(frame)["text/plain"]).split("\n")[4]).toMatch(/null\s+-1\s+\[\]$/);
  });

  it("cuts a long frame to its head and tail, with the note beside the shape and a gap row that stays in view", () => {
    const long = pl.DataFrame([
      pl.Series("i", Array.from({ length: 1000 }, (_, i) => i), pl.Int32),
      pl.Series("s", Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(80, "x"))),
    ]);
    const bundle = frameBundle(long, { maxRows: 10, maxCellChars: 12 });
    const doc = table(String(bundle["text/html"]));
    const rows = [...doc.querySelectorAll("tbody tr")];
    expect(rows).toHaveLength(11);
    expect(rows.map((r) => r.firstElementChild!.textContent)).toEqual([
      "0",
      "1",
      "2",
      "3",
      "4",
      "… 990 more rows …",
      "995",
      "996",
      "997",
      "998",
      "999",
    ]);
    expect(rows[0].children[1].textContent).toBe("0xxxxxxxxxx…");
    expect(doc.querySelector(".wb-shape")!.textContent).toBe("1,000 rows × 2 columns · showing the first 5 and last 5 of 1,000 rows");
    expect(String(bundle["text/html"])).toMatch(/\.wb-gap span\{display:inline-block;position:sticky;left:8px\}/);
    // JupyterLab right-aligns every td with (0,2,1) specificity; the gap row's rule must beat it.
    expect(String(bundle["text/html"])).toMatch(/\.wb-box \.wb-frame tr\.wb-gap td\{[^}]*text-align:left/);
    const text = String(bundle["text/plain"]).split("\n");
    expect(text).toHaveLength(3 + 11);
    expect(text[0]).toBe("1,000 rows × 2 columns (showing the first 5 and last 5 of 1,000 rows)");
    expect(text[8].trim()).toBe("… 990 more rows …");
    expect(frameBundle(long.head(20))["text/html"]).not.toContain('class="wb-note"');
  });

  it("scrolls a wide frame inside its box, headers sticky at the top", () => {
    const wide = pl.DataFrame(Object.fromEntries(Array.from({ length: 62 }, (_, i) => [`column_${i}`, [i, i + 1]])));
    const html = String(frameBundle(wide)["text/html"]);
    expect(html).toMatch(/\.wb-box\{max-width:100%;max-height:560px;overflow:auto/);
    expect(html).toMatch(/thead th\{position:sticky;top:0/);
    expect(table(html).querySelectorAll(".wb-box table th")).toHaveLength(62);
  });

  it("shows the workbench's warnings for a frame above its table", () => {
    const frame = trades();
    const key = Symbol.for("market-workbench.frameWarnings");
    const registry = ((globalThis as Record<symbol, unknown>)[key] ??= new WeakMap()) as WeakMap<object, string[]>;
    registry.set(frame, ["MSFT: no rows on 2023-11-23 (market closed)"]);
    const doc = table(String(frameBundle(frame)["text/html"]));
    expect([...doc.querySelectorAll(".wb-warn")].map((w) => w.textContent)).toEqual([
      "warning MSFT: no rows on 2023-11-23 (market closed)",
    ]);
    expect(String(frameBundle(frame)["text/plain"]).split("\n")[0]).toBe("warning: MSFT: no rows on 2023-11-23 (market closed)");
    expect(frameBundle(trades())["text/html"]).not.toContain('class="wb-warn"');
  });
});

describe("describe", () => {
  it("summarises numbers, dates, New York times and text, where nodejs-polars' own describe fails on dates", () => {
    expect(() => trades().describe()).toThrow();
    const d = describeFrame(trades().drop("Universe"));
    expect(d.getColumn("statistic").toArray()).toEqual(["count", "null_count", "mean", "std", "min", "25%", "50%", "75%", "max", "unique"]);
    const row = (stat: string) => d.filter(pl.col("statistic").eq(pl.lit(stat))).toRecords()[0];
    expect(row("min")).toMatchObject({ TradeDate: "2023-07-03", EventDateTime: "2023-07-03 09:30", Price: 190.64 });
    expect(row("max")).toMatchObject({ TradeDate: "2023-11-21", EventDateTime: "2023-11-21 09:30", Ticker: "AAPL" });
    expect(row("count")).toMatchObject({ Price: 1, Ticker: "2" });
    expect(row("null_count")).toMatchObject({ Price: 1 });
    expect(row("unique")).toMatchObject({ Ticker: "2" });
  });

  it("shows count and null_count as integers and the other statistics with their column's decimals", () => {
    const prices = pl.DataFrame([
      pl.Series("Close", Array.from({ length: 959 }, (_, i) => 174.41 + (i % 50) / 100), pl.Float64),
      pl.Series("Volume", Array.from({ length: 959 }, (_, i) => 1000 + i), pl.Int64),
    ]);
    const cells = cellsOf(String(frameBundle(describeFrame(prices))["text/html"]));
    expect(cells.map((r) => r[0])).toEqual(["count", "null_count", "mean", "std", "min", "25%", "50%", "75%", "max", "unique"]);
    expect(cells[0].slice(1)).toEqual(["959", "959"]);
    expect(cells[1].slice(1)).toEqual(["0", "0"]);
    expect(cells[4].slice(1)).toEqual(["174.410000", "1,000.000000"]);
    // One number of decimals for every other statistic of a column.
    const decimals = (v: string) => v.split(".")[1]?.length ?? 0;
    expect(new Set(cells.slice(2, 9).map((r) => decimals(r[1]!))).size).toBe(1);
    // Cut to head and tail, the count rows stay whole.
    const cut = cellsOf(String(frameBundle(describeFrame(prices), { maxRows: 4 })["text/html"]));
    expect(cut.map((r) => r[1])).toEqual(["959", "0", "174.9", "null"]); // decimals follow the rows shown
  });
});

describe("richBundle", () => {
  it("shows a Series as a one-column table and a LazyFrame as schema and plan with a hint to collect", () => {
    const series = richBundle(trades().getColumn("Price"))!;
    expect(String(series["text/plain"]).split("\n").slice(0, 3).map((l) => l.trim())).toEqual([
      "Series: 2 rows × 1 column",
      "Price",
      "f64",
    ]);
    const lazy = String(richBundle(trades().lazy().filter(pl.col("Price").gt(1)))!["text/plain"]);
    expect(lazy).toContain("LazyFrame, 6 columns: TradeDate date, EventDateTime datetime[ns, America/New_York]");
    expect(lazy).toContain(".collect()");
    expect(lazy).toMatch(/FILTER .*Price/);
    expect(richBundle({ plain: 1 })).toBeUndefined();
  });
});

describe("workbench objects", () => {
  it("an estimate's card says how its rows were found and what counting them cost", () => {
    const remaining = { monthly_requests: 990, monthly_data_returned: 5e8, monthly_data_scanned: 1e9 } as unknown as Estimate["remaining"];
    const base = {
      dataset: "eq-taq",
      rows: 123_456,
      requests: 3,
      bytes: 2_000_000,
      remaining,
      fitsMonthlyQuota: true,
      minutesAtRateLimit: 0.1,
    };
    const counted = richBundle(
      displayAs<Estimate>({
        ...base,
        basis: "sampled-days",
        lookupRequests: 2,
        lookupBytes: 91_000,
        countedDays: { counted: 16, asked: 62 },
      }, "estimate"),
    )!;
    expect(counted["text/plain"]).toMatch(/rows \(about\) +123,456, counted on the call's days \(16 of 62 days read\)/);
    expect(counted["text/plain"]).toMatch(/counting cost +2 requests, 88\.\d KiB/);
    const refused = richBundle(
      displayAs<Estimate>(
        { ...base, basis: "metadata", lookupRequests: 1, lookupBytes: 0, lookupFailure: "not entitled to eq-taq-1min" },
        "estimate",
      ),
    )!;
    expect(refused["text/plain"]).toContain("123,456, scaled from the dataset's status");
    expect(refused["text/plain"]).toMatch(/counting cost +1 request, 0 B/);
    expect(refused["text/plain"]).toMatch(/not counted +not entitled to eq-taq-1min/);
  });

  it("an error shows its class, message, status, request id and every entry of the service's 422 detail list", () => {
    const error = new ValidationError("The service refused the query (422): GET /api/v1/data/eq-taq-1min/AAPL", {
      status: 422,
      requestId: "req-7",
      url: "http://127.0.0.1:1/api/v1/data/eq-taq-1min/AAPL",
      issues: [
        { type: "value_error", loc: ["query", "TradeDate.ge"], msg: "Input should be a valid date", input: "2023-13-45" },
        { type: "extra_forbidden", loc: ["query", "Tickr"], msg: "Unknown column" },
      ],
    });
    const bundle = richBundle(error)!;
    const doc = table(String(bundle["text/html"]));
    expect([...doc.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      'query.TradeDate.ge: Input should be a valid date (got "2023-13-45")',
      "query.Tickr: Unknown column",
    ]);
    expect(String(bundle["text/plain"]).split("\n")).toEqual([
      "ValidationError",
      "  message     The service refused the query (422): GET /api/v1/data/eq-taq-1min/AAPL",
      "  status      422",
      "  request     http://127.0.0.1:1/api/v1/data/eq-taq-1min/AAPL",
      "  request id  req-7",
      '  - query.TradeDate.ge: Input should be a valid date (got "2023-13-45")',
      "  - query.Tickr: Unknown column",
    ]);
  });

  it("a download result and an estimate read as cards, bytes in binary units", () => {
    const download = displayAs({
      dir: "lake/bars",
      dataset: "eq-taq-1min",
      layout: ["Ticker", "TradeDate"],
      partitions: 40,
      fetched: 10,
      rows: 1_234_567,
      resumed: true,
    }, "download-result");
    expect(String(richBundle(download)!["text/plain"])).toBe(
      'Download of eq-taq-1min resumed and complete\n  folder        lake/bars\n  partitions    40 by Ticker/TradeDate; 10 fetched by this call\n  rows written  1,234,567\n  read it with  wb.scan("lake/bars")',
    );
    const estimate = displayAs({
      dataset: "eq-taq-1min",
      rows: 518_400,
      requests: 53,
      bytes: 3 * 2 ** 30,
      remaining: { per_minute_requests: 30, monthly_requests: 900, monthly_data_scanned: 0, monthly_data_returned: 10 * 2 ** 30 },
      fitsMonthlyQuota: true,
      minutesAtRateLimit: 1.8,
    }, "estimate");
    const text = String(richBundle(estimate)!["text/plain"]);
    expect(text).toContain("  data                          3 GiB");
    expect(text).toContain("  time at the per-minute quota  1.8 min");
    expect(text).toContain("  data left this month          10 GiB");
    expect(JSON.stringify(estimate)).not.toContain("displayKind"); // the tag is invisible to JSON and keys
  });
});

describe("installDisplay", () => {
  it("gives every new frame the kernel's display method, and nothing else", () => {
    installDisplay({ maxRows: 4 });
    const frame = trades();
    for (const made of [frame, frame.select("TradeDate", "EventDateTime"), frame.lazy().collectSync(), pl.concat([frame, frame])]) {
      const html = bundleOf(made)["text/html"];
      expect(html).toContain('<span class="wb-dtype">date</span>');
      expect(html).toContain("2023-11-21 09:30<");
    }
    expect(bundleOf(pl.concat([frame, frame, frame]))["text/html"]).toContain("showing the first 2 and last 2 of 6 rows");
    installDisplay({ maxRows: 100 });
    expect(bundleOf(pl.concat([frame, frame, frame]))["text/html"]).not.toContain('class="wb-note"');
    expect(DISPLAY in Object.prototype).toBe(false);
    expect(({} as Record<symbol, unknown>)[DISPLAY]).toBeUndefined();
  });
});

const rules: AccessRule[] = [
  {
    dataset_text_id: "eq-taq-1min",
    dataset_id: "7",
    dataset_name: "Equity TAQ 1-minute bars",
    dataset_version: "1",
    start_date: "2023-11-21",
    end_date: "2023-11-27",
    universe_identifiers: ["AAPL", "MSFT"],
  },
  {
    dataset_text_id: "eq-daily-ohlc",
    dataset_id: "9",
    dataset_name: "Daily OHLC",
    dataset_version: "1",
    start_date: "2023-11-01",
    end_date: null,
    universe_identifiers: [],
  },
];
const quotas = (monthlyUsed: number): Quotas => ({
  quotas_usage: { per_minute_requests: 3, monthly_requests: monthlyUsed, monthly_data_scanned: 1_500_000_000, monthly_data_returned: 0 },
  quotas_limit: { per_minute_requests: 30, monthly_requests: 50, monthly_data_scanned: 10 * 2 ** 30, monthly_data_returned: 5 * 2 ** 30 },
});
const identity = { identity_id: 12, name: "Research <desk>", max_active_api_keys: 3, ip_subnets: ["10.0.0.0/8"] };
const ent = new Entitlements(identity, rules, quotas(45));

describe("the entitlements card", () => {
  it("lists each dataset with its window and universe, and each quota as a gauge", () => {
    const { "text/html": html, "text/plain": text } = bundleOf(entitlementCard(ent));
    const doc = table(html);
    expect([...doc.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((td) => td.textContent))).toEqual([
      [" eq-taq-1minEquity TAQ 1-minute bars", "2023-11-21 → 2023-11-27", "AAPL, MSFT"],
      [" eq-daily-ohlcDaily OHLC", "2023-11-01 → ongoing", "all tickers"],
    ]);
    expect(html).toContain("Research &lt;desk&gt;");
    expect(html).toContain("requests this minute: 3 of 30 (10%)");
    expect(html).toContain(
      'requests this month: 45 of 50 (90%)</div><div style="background:#eee;height:8px;border-radius:3px;width:320px"><div style="width:90.0%;min-width:2px;height:100%;background:#de2d26',
    );
    expect(html).toContain("data scanned this month: 1.4 GiB of 10 GiB (14%)");
    expect(html).toContain("data returned this month: 0 B of 5 GiB (0%)");
    expect(doc.querySelectorAll("svg.wb-icon-allowed")).toHaveLength(2);
    expect(doc.querySelectorAll(".wb-gauge svg.wb-icon-warning")).toHaveLength(1); // the 90% gauge
    expect(html).not.toMatch(/[\u{1F300}-\u{1FAFF}\u2705\u274C\u26D4]/u); // no emoji that needs an emoji font
    expect(text.split("\n")).toEqual([
      "Research <desk> (identity 12, from 10.0.0.0/8)",
      "  eq-taq-1min: 2023-11-21 to 2023-11-27, AAPL, MSFT",
      "  eq-daily-ohlc: 2023-11-01 to ongoing, all tickers",
      "  requests this minute: 3 of 30 (10%)",
      "  requests this month: 45 of 50 (90%)",
      "  data scanned this month: 1.4 GiB of 10 GiB (14%)",
      "  data returned this month: 0 B of 5 GiB (0%)",
    ]);
  });
});

describe("may() and explain()", () => {
  it.each([
    [
      "a dataset not entitled",
      "opt-greeks-daily",
      {},
      /^Your account is not entitled to opt-greeks-daily; it may read eq-taq-1min, eq-daily-ohlc$/,
    ],
    [
      "a date before the window",
      "eq-taq-1min",
      { ticker: "AAPL", date: "2023-11-20" },
      /^2023-11-20 is outside your access window for eq-taq-1min \(2023-11-21 to 2023-11-27\): whether the data holds it, this key cannot see$/,
    ],
    ["a date after the window, as a Date", "eq-taq-1min", { date: new Date("2023-11-28T00:00:00Z") }, /^2023-11-28 is outside/],
    [
      "a ticker outside the universe",
      "eq-taq-1min",
      { ticker: "TSLA", date: "2023-11-21" },
      /^Ticker TSLA is outside your universe for eq-taq-1min \(AAPL, MSFT\)$/,
    ],
  ])("refuses %s, saying why", (_, dataset, options, reason) => {
    const verdict = ent.may(dataset, options);
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toMatch(reason);
    expect(verdict.reasons).toEqual([verdict.reason]);
    expect(bundleOf(explain(verdict))["text/plain"]).toBe(`refused:\n  - ${verdict.reason}`);
    expect(bundleOf(explain(verdict))["text/html"]).toContain('<svg class="wb-icon wb-icon-refused"');
  });

  it("lists every reason a read is refused: date and universe together", () => {
    const verdict = ent.may("eq-taq-1min", { ticker: "TSLA", date: "2023-11-20" });
    expect(verdict.reasons).toEqual([
      "2023-11-20 is outside your access window for eq-taq-1min (2023-11-21 to 2023-11-27): whether the data holds it, this key cannot see",
      "Ticker TSLA is outside your universe for eq-taq-1min (AAPL, MSFT)",
    ]);
    const doc = table(bundleOf(explain(verdict))["text/html"]);
    expect([...doc.querySelectorAll("li")].map((li) => li.textContent)).toEqual(verdict.reasons);
    expect(bundleOf(explain(verdict))["text/plain"].split("\n")[0]).toBe("refused for 2 reasons:");
  });

  it("refuses everything once the monthly request quota is used up", () => {
    const spent = new Entitlements(identity, rules, quotas(50));
    const reason = "Your monthly request quota is used up (50/50); it resets on the 1st at 00:00 UTC";
    expect(spent.may("eq-daily-ohlc", { ticker: "SPY", date: "2024-01-02" })).toEqual({ allowed: false, reason, reasons: [reason] });
  });

  it("allows a read inside the window and universe (an open window and no universe reach everything)", () => {
    expect(ent.may("eq-taq-1min", { ticker: "MSFT", date: "2023-11-27" })).toEqual({
      allowed: true,
      reason: "Yes: eq-taq-1min from 2023-11-21 to 2023-11-27, tickers AAPL, MSFT",
      reasons: [],
    });
    const verdict = ent.may("eq-daily-ohlc", { ticker: "ODFL", date: "2031-01-02" });
    expect(verdict).toEqual({ allowed: true, reason: "Yes: eq-daily-ohlc from 2023-11-01 to today, every ticker", reasons: [] });
    expect(bundleOf(explain(verdict))["text/plain"]).toBe("allowed: Yes: eq-daily-ohlc from 2023-11-01 to today, every ticker");
    expect(bundleOf(explain(verdict))["text/html"]).toMatch(
      /^<div style="font:13px sans-serif"><svg class="wb-icon wb-icon-allowed".*<\/svg> Yes: eq-daily-ohlc/,
    );
  });
});
