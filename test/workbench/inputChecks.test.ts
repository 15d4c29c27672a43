/**
 * Every mistake in a data call is a typed error before any data request is sent, naming the
 * option or value and what is allowed; empty answers of every dataset are correctly typed
 * empty frames (an empty opt-sec-master answer used to crash on its List(String) columns).
 */
import { dataEndpoint } from "../../workbench/query/endpoints.ts";
import { prepareRequest, requestParams } from "../../workbench/query/prepare.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  DATA_ENDPOINTS,
  QueryError,
  UnknownDatasetError,
  ValidationError,
  type Workbench,
  WorkbenchError,
} from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import { schemaOf } from "./support/frames.ts";

let sb: TestSandbox;
let wb: Workbench;
beforeAll(async () => {
  sb = await startSandbox();
  wb = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-full-access" });
  // Rules and schemas are free metadata; cache them so "nothing sent" means no request at all.
  for (const id of ["eq-daily-ohlc", "eq-taq-1min", "eq-taq"]) await wb.meta.schema(id);
  await wb.account.rules();
});
afterAll(() => sb?.stop());

/** Runs a call that must fail before sending anything; returns the error. */
async function refused(call: () => Promise<unknown>): Promise<Error> {
  const before = wb.transport.requestsSent;
  const error = await call().then(() => undefined, (e) => e);
  expect(error, "the call should have been refused").toBeInstanceOf(Error);
  expect(wb.transport.requestsSent, `sent a request before refusing: ${error}`).toBe(before);
  return error;
}

const BAD_CALLS: [string, () => Promise<unknown>, RegExp][] = [
  [
    "unknown option 'filter'",
    () => wb.data.eqDailyOhlc({ filter: { Ticker: "AAPL" } } as never),
    /Unknown option 'filter' \(did you mean 'filters'\?\): options are filters, columns/,
  ],
  ["unknown option 'limit'", () => wb.data.eqDailyOhlc({ limit: 3 } as never), /Unknown option 'limit'.*options are .*maxRows/],
  [
    "Ticker: null",
    () => wb.data.eqDailyOhlc({ filters: { Ticker: null } } as never),
    /filters\.Ticker is null: a filter value is text.*leave the column out/,
  ],
  ["Ticker: undefined", () => wb.data.eqDailyOhlc({ filters: { Ticker: undefined } } as never), /filters\.Ticker is undefined/],
  ["Ticker: true", () => wb.data.eqDailyOhlc({ filters: { Ticker: true } } as never), /filters\.Ticker is true \(boolean\)/],
  ["Ticker: {}", () => wb.data.eqDailyOhlc({ filters: { Ticker: {} } } as never), /filters\.Ticker is \{\} \(no operator\).*eq, gt, ge/],
  [
    "an operator misspelt",
    () => wb.data.eqDailyOhlc({ filters: { TradeDate: { gte: "2023-11-21" } } } as never),
    /Unknown operator 'gte' in filters\.TradeDate \(did you mean 'ge'/,
  ],
  ["an invalid Date filter", () => wb.data.eqDailyOhlc({ filters: { TradeDate: new Date("x") } }), /filters\.TradeDate is an Invalid Date/],
  ["eqTaq(new Date('x'))", () => wb.data.eqTaq(new Date("x"), "AAPL"), /trade_date of eq-taq is an Invalid Date/],
  [
    "an extra path value",
    () => wb.data.get("eq-daily-ohlc", ["AAPL"]),
    /eq-daily-ohlc takes 0 path value\(s\) \[\] \(none\), got 1: 'AAPL'/,
  ],
  [
    "path values as a string",
    () => wb.data.get("eq-taq-1min", "AAPL" as never),
    /Path values of eq-taq-1min are 'AAPL': give a list \[<ticker>\], e\.g\. \["AAPL"\]/,
  ],
  [
    "a ticker as null",
    () => wb.data.eqTaq1Min(null as never),
    /eqTaq1Min's first argument is null: give the ticker \(one or a list\) or the options, as in eqTaq1Min\("AAPL"/,
  ],
  ["columns: []", () => wb.data.eqDailyOhlc({ columns: [] }), /columns is an empty list: name at least one column/],
  ["columns: 'Ticker'", () => wb.data.eqDailyOhlc({ columns: "Ticker" } as never), /columns is 'Ticker' \(did you mean \["Ticker"\]\?\)/],
  ["columns: [123]", () => wb.data.eqDailyOhlc({ columns: [123] } as never), /columns\[0\] is 123 \(number\): column names are text/],
  ["sort: 5", () => wb.data.eqDailyOhlc({ sort: 5 } as never), /sort is 5 \(number\): give a list of column names or one name/],
  [
    "query: null",
    () => wb.data.eqDailyOhlc(null as never),
    /eqDailyOhlc's first argument is null: give the ticker \(one or a list\) or the options/,
  ],
  [
    "a date-time without two-digit hours",
    () => wb.data.eqTaq1Min("AAPL", { filters: { BarDateTime: { ge: "2023-11-21 9:30" } } }),
    /Cannot filter eq-taq-1min\.BarDateTime by '2023-11-21 9:30': expected an ISO 8601 date-time/,
  ],
  [
    "an integer in hex",
    () => wb.data.eqDailyOhlc({ filters: { DailyVolume: { gt: "0x10" } } }),
    /Cannot filter eq-daily-ohlc\.DailyVolume by '0x10': expected a whole number written in decimal/,
  ],
  [
    "an integer padded with spaces",
    () => wb.data.eqDailyOhlc({ filters: { DailyVolume: " 170 " } }),
    /by ' 170 ': expected a whole number/,
  ],
  [
    "an integer in exponent form",
    () => wb.data.eqDailyOhlc({ filters: { DailyVolume: { gt: "1e3" } } }),
    /DailyVolume by '1e3': expected a whole number written in decimal digits \(an optional sign, no spaces\)/,
  ],
  [
    "an integer with a separator",
    () => wb.data.eqDailyOhlc({ filters: { DailyVolume: { gt: "1_000" } } }),
    /by '1_000': expected a whole number/,
  ],
  ["an integer with a fraction", () => wb.data.eqDailyOhlc({ filters: { DailyVolume: "170.0" } }), /by '170\.0': expected a whole number/],
  [
    "an integer as a JS fraction",
    () => wb.data.eqDailyOhlc({ filters: { DailyVolume: { ge: 1.5 } } }),
    /by '1\.5': expected a whole number/,
  ],
  [
    "an integer in full-width digits",
    () => wb.data.eqDailyOhlc({ filters: { DailyVolume: "\uff11\uff17\uff10" } }),
    /expected a whole number written in decimal digits/,
  ],
  ["an integer after a tab", () => wb.data.eqDailyOhlc({ filters: { DailyVolume: "\t170" } }), /expected a whole number/],
  [
    "an integer with two signs",
    () => wb.data.eqDailyOhlc({ filters: { DailyVolume: { gt: "+-1" } } }),
    /by '\+-1': expected a whole number/,
  ],
  [
    "an integer past Int64",
    () => wb.data.eqDailyOhlc({ filters: { DailyVolume: { lt: "9223372036854775808" } } }),
    /from -9223372036854775808 to 9223372036854775807/,
  ],
  ["a bad member of an integer list", () => wb.data.eqDailyOhlc({ filters: { DailyVolume: ["170", "0x10"] } }), /DailyVolume by '0x10'/],
  [
    "a price in hex",
    () => wb.data.eqDailyOhlc({ filters: { ClosePrice: { gt: "0x10" } } }),
    /ClosePrice by '0x10': expected a number written in decimal/,
  ],
];

describe("mistakes refused before sending, as QueryErrors naming the value", () => {
  for (const [name, call, message] of BAD_CALLS) {
    it(name, async () => {
      const error = await refused(call);
      expect(error).toBeInstanceOf(QueryError);
      expect(error.message).toMatch(message);
    });
  }

  it("an unknown dataset id is an UnknownDatasetError listing the known ids and the nearest", async () => {
    const error = await refused(() => wb.data.get("eq-taq-1m"));
    expect(error).toBeInstanceOf(UnknownDatasetError);
    expect(error).toBeInstanceOf(WorkbenchError);
    expect(error.message).toMatch(
      /Unknown dataset 'eq-taq-1m' \(did you mean 'eq-taq-1min'.*\): known datasets are eq-taq-1min, eq-daily-ohlc/,
    );
    expect((error as UnknownDatasetError).known).toEqual(Object.keys(DATA_ENDPOINTS));
    expect(await refused(() => wb.data.get("nope"))).toBeInstanceOf(UnknownDatasetError);
    expect(await refused(() => wb.estimate("nope"))).toBeInstanceOf(UnknownDatasetError);
  });

  it("strict integers the rule allows pass the checks: a sign, and Int64 values beyond 2^53", async () => {
    await wb.meta.availability("eq-daily-ohlc");
    const before = wb.transport.requestsSent;
    const got = await wb.data.eqDailyOhlc({
      filters: { Ticker: "AAPL", TradeDate: "2023-11-21", DailyVolume: { ge: "+0", lt: 9007199254740991n } },
    });
    expect(got.height).toBe(1);
    expect(wb.transport.requestsSent - before).toBe(1);
    // Recorded (on by default) with the big integer as its decimal text.
    expect(wb.provenance().calls.at(-1)!.query).toMatchObject({ filters: { DailyVolume: { ge: "+0", lt: "9007199254740991" } } });
    // Beyond 2^53 is checked and built exactly (the sandbox itself stops at 2^53; a real service reads Int64).
    const [schema, rules] = await Promise.all([wb.meta.schema("eq-daily-ohlc"), wb.account.rules()]);
    const big = requestParams(
      prepareRequest(
        dataEndpoint("eq-daily-ohlc"),
        [],
        { filters: { DailyVolume: { lt: 9007199254740993n, gt: "-9223372036854775808" } } },
        schema,
        rules,
      ),
    );
    expect(big.get("DailyVolume.lt")).toBe("9007199254740993");
    expect(big.get("DailyVolume.gt")).toBe("-9223372036854775808");
  });

  it("well-formed values the service accepts still pass: date-only, Z and naive date-times, exponents", async () => {
    const got = await wb.data.eqTaq1Min("AAPL", {
      filters: {
        TradeDate: "2023-11-21",
        BarDateTime: { ge: "2023-11-21T14:30:00Z", lt: "2023-11-21T09:35" },
        CloseBidPrice: { gt: "1e-3" },
      },
    });
    expect(got.height).toBe(5);
  });
});

describe("empty answers and the errors they used to hide", () => {
  /** A filter that matches no row: a string column that is not a ticker, else a numeric one. */
  async function noRowFilter(id: string): Promise<Record<string, unknown>> {
    const cols = await wb.meta.schema(id);
    const text = cols.find((c) => c.data_type === "string" && !/Ticker|Root|Symbol/.test(c.name));
    if (text) return { [text.name]: { like: "#no-such-value#" } };
    const number = cols.find((c) => c.data_type === "int64" || c.data_type === "float64")!;
    return { [number.name]: { lt: -1e15 } };
  }

  for (const id of Object.keys(DATA_ENDPOINTS)) {
    it(`${id}: an empty answer is a frame with every column of its schema type`, async () => {
      const path = id === "eq-taq-1min" ? ["AAPL"] : id === "eq-taq" ? ["2023-11-21", "AAPL"] : [];
      const one = await wb.data.get(id, path, { maxRows: 1 });
      expect(one.height).toBe(1);
      for (const format of ["csv", "json"] as const) {
        const empty = await wb.data.get(id, path, { filters: await noRowFilter(id), format } as never);
        expect(empty.height).toBe(0);
        expect(schemaOf(empty)).toEqual(schemaOf(one));
      }
    });
  }

  it("a 'like' on a list column comes back as the service's typed ValidationError", async () => {
    const error = await wb.data.optSecMaster({ filters: { OptionTradeDates: { like: "2023*" } } }).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(422);
    expect((error as ValidationError).issues[0].loc).toContain("OptionTradeDates.like");
  });
});
