/**
 * fast-check arbitraries for requests to the sandbox: paths of random depth built from real
 * and made-up segments, query strings of real and made-up columns with valid and invalid
 * operators and values of every kind (unicode, empty, huge numbers, broken percent-escapes,
 * repeated parameters), and keys among the demo keys. Every request is well-formed HTTP, so
 * whatever the answer is, the service (not the HTTP parser in front of it) chose it.
 */
import { DEMO_KEYS as DEMO_KEY_ROLES } from "../../../../contract/demoKeys.ts";
import fc from "fast-check";
import { DATASETS } from "../../../../sandbox/market/catalog.ts";

export interface FuzzRequest {
  path: string;
  key?: string;
  requestId?: string;
}

// The demo keys from the contract (demoAccounts.ts needs node:sqlite, which Node 20 lacks).
const DEMO_KEYS: string[] = Object.values(DEMO_KEY_ROLES);
const COLUMNS = [...new Set(DATASETS.flatMap((d) => d.columns.map((c) => c.name)))];
const RESERVED = ["sort", "columns", "offset", "limit", "response_format", "aggregation_logic"];
const OPERATORS = ["eq", "gt", "ge", "lt", "le", "in", "like", "ilike", "ne", "gte", "lte", "EQ", "", "eq.eq", "contains"];

/** Percent sequences a careless decoder trips on: lone `%`, bad hex, bad UTF-8, encoded separators. */
const RAW_ESCAPES = [
  "%",
  "%Z",
  "%ZZ",
  "%25",
  "%2525",
  "%00",
  "%E0%A4%A",
  "%C3%28",
  "%FF",
  "%2F",
  "%2e%2e",
  "%3F",
  "%26",
  "%3D",
  "+",
  "%2B",
  "%0A",
];

/** Text that is already safe in a request target: encoded, or a raw escape. */
const unicodeText = fc.string({ unit: "grapheme", maxLength: 12 }).map(encodeURIComponent);
const asciiText = fc.string({ unit: "binary-ascii", maxLength: 12 }).map(encodeURIComponent);
const rawEscape = fc.array(fc.constantFrom(...RAW_ESCAPES), { minLength: 1, maxLength: 3 }).map((a) => a.join(""));
const text = fc.oneof(unicodeText, asciiText, rawEscape);

const SPECIAL_VALUES = [
  "AAPL",
  "MSFT",
  "SPY",
  "aapl",
  "JPM.PRC",
  "*",
  "a*",
  "",
  "-",
  "+Ticker",
  "-Volume",
  ",",
  "a,,b",
  "..",
  "2023-11-21",
  "2023-11-27",
  "2023-13-01",
  "2023-02-29",
  "0000-01-01",
  "9999-12-31",
  "20231121",
  "2023-11-21T09:30:00",
  "2023-11-21T09:30:00.123456789-05:00",
  "2023-11-21T25:00",
  "9999-12-31T23:59:59Z",
  "1900-01-01T00:00:00",
  "0001-01-01T00:00:00Z",
  "1677-09-21T00:12:43.145224192Z",
  "0",
  "-1",
  "-0",
  "1.5",
  "1e308",
  "-1e308",
  "1e400",
  "NaN",
  "Infinity",
  "0x10",
  "9007199254740991",
  "9007199254740993",
  "4294967295",
  "4294967296",
  "18446744073709551616",
  "99999999999999999999999999",
  "json",
  "csv",
  "csv_gzip",
  "xml",
  "core",
  "no_finra_trf",
];

const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_VALUES).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...SPECIAL_VALUES), { maxLength: 4 }).map((a) => encodeURIComponent(a.join(","))) },
  { weight: 3, arbitrary: text },
);

const name = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...COLUMNS) },
  { weight: 3, arbitrary: fc.constantFrom(...RESERVED) },
  { weight: 1, arbitrary: fc.constantFrom(...COLUMNS).map((c) => c.toLowerCase()) },
  { weight: 1, arbitrary: text },
);

/** Parameters a real user sends, so that many requests get as far as the engine. */
const SENSIBLE = [
  "Ticker=AAPL",
  "Ticker=MSFT",
  "Ticker.in=AAPL,MSFT",
  "Ticker.like=A*",
  "TradeDate=2023-11-22",
  "TradeDate.ge=2023-11-21",
  "TradeDate.le=2023-11-27",
  "limit=3",
  "limit=0",
  "offset=2",
  "offset=100000",
  "columns=Ticker,TradeDate",
  "sort=-TradeDate",
  "sort=Ticker,-ASID",
  "response_format=csv",
  "response_format=csv_gzip",
  "aggregation_logic=no_finra_trf",
  "ASID.gt=0",
  "BarDateTime.ge=2023-11-21T09:30:00",
  "EventDateTime.lt=2023-11-21T10:00:00-05:00",
  "Price.gt=100",
  "Volume.gt=1000",
];

const param = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SENSIBLE) },
  {
    weight: 6,
    arbitrary: fc.tuple(name, fc.option(fc.oneof(fc.constantFrom(...OPERATORS), text), { nil: undefined }), value)
      .map(([n, op, v]) => `${n}${op === undefined ? "" : `.${op}`}=${v}`),
  },
  { weight: 1, arbitrary: name },
  { weight: 1, arbitrary: text },
);

/** A query string; a parameter may repeat, since `fc.array` draws names with replacement. */
const query = fc.oneof(
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...SENSIBLE), { maxLength: 4 }) },
  { weight: 3, arbitrary: fc.array(param, { maxLength: 6 }) },
).map((ps) => (ps.length === 0 ? "" : `?${ps.join("&")}`));

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("AAPL", "MSFT", "SPY", "aapl", "JPM.PRC", "2023-11-21", "2023-11-20", "2023-13-01") },
  { weight: 2, arbitrary: fc.constantFrom("..", ".", "", "%2e%2e", "%2F", "%25", "%", "~", "-") },
  { weight: 2, arbitrary: text },
);
const segments = fc.array(segment, { maxLength: 4 }).map((s) => s.map((x) => `/${x}`).join(""));

const TICKERS = ["AAPL", "MSFT", "SPY", "aapl", "JPM.PRC", "OXY.WS", "XYZ", "TSLA"];
const DATES = ["2023-11-21", "2023-11-20", "2023-11-23", "2023-11-28", "2023-13-01", "2023-11-1"];

/** A path the router accepts: a real dataset under its asset class, with its path parameters. */
const wellFormedDataPath = fc.constantFrom(...DATASETS).chain((d) =>
  fc.tuple(
    ...d.pathParams.map((p) =>
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(p.type === "date" ? DATES : TICKERS)) }, { weight: 1, arbitrary: text })
    ),
  )
    .map((values) => `/api/v1/data/${d.assetClass}/${d.textId}${values.map((v) => `/${v}`).join("")}`)
);

const anyDataPath = fc.tuple(
  fc.oneof(fc.constantFrom("us-equity", "us-equity-opt", "us-equity-ref", "US-EQUITY", ""), text),
  fc.oneof(fc.constantFrom(...DATASETS.map((d) => d.textId), "opt-greeks-daily", "eq-taq-1MIN", ""), text),
  segments,
).map(([asset, dataset, rest]) => `/api/v1/data/${asset}/${dataset}${rest}`);

const dataPath = fc.oneof({ weight: 3, arbitrary: wellFormedDataPath }, { weight: 1, arbitrary: anyDataPath });

const otherPath = fc.oneof(
  fc.tuple(fc.oneof(fc.constantFrom(...DATASETS.map((d) => d.textId)), text), fc.constantFrom("/status", "/columns", "", "/x"))
    .map(([id, tail]) => `/api/v1/meta/datasets/${id}${tail}`),
  fc.constantFrom(
    "/api/v1/account/my",
    "/api/v1/account/my/quotas",
    "/api/v1/account/my/data-access-rules",
    "/api/v1/meta/datasets",
    "/openapi.json",
  ),
  segments.map((s) => `/api${s}`),
  segments.map((s) => s || "/"),
);

// Mostly keys that get past authentication, so most requests reach validation and the engine.
const key = fc.oneof(
  { weight: 6, arbitrary: fc.constant("demo-full-access") },
  { weight: 4, arbitrary: fc.constant("demo-restricted") },
  { weight: 2, arbitrary: fc.constantFrom(...DEMO_KEYS) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  // Header values may hold visible ASCII and spaces; the HTTP layer strips the outer spaces.
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }) },
);

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  path: fc.oneof({ weight: 4, arbitrary: fc.tuple(dataPath, query).map(([p, q]) => p + q) }, {
    weight: 1,
    arbitrary: fc.tuple(otherPath, query).map(([p, q]) => p + q),
  }),
  key,
  requestId: fc.option(fc.oneof(fc.constantFrom("fuzz-1", "a".repeat(65), "bad id!"), fc.uuid()), { nil: undefined }),
});
