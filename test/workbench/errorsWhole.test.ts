/**
 * Errors are whole when made: a call cut short throws its failure made again with what it keeps
 * (`partial`) and how it goes on (`resume`), through `keeping`, never with fields attached
 * after. Each class made again keeps its own class, message and fields.
 */
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import {
  ContractError,
  InterruptedError,
  lastInterrupted,
  NetworkError,
  NotEntitledError,
  QuotaExceededError,
  QuotaGuardError,
  StorageError,
  UnknownTickerError,
  ValidationError,
  WorkbenchError,
} from "../../workbench/mod.ts";

const rows = pl.DataFrame({ Ticker: ["AAPL", "MSFT"] });
const resume = () => Promise.resolve(rows);

/** `error` made again with the call's state: a new error of its class, its own fields kept. */
function kept<E extends WorkbenchError>(error: E): E {
  const whole = error.keeping({ partial: rows, resume }) as E;
  expect(whole).not.toBe(error);
  expect(whole.constructor).toBe(error.constructor);
  expect(whole.message).toBe(error.message);
  expect(whole.partial?.height).toBe(2);
  expect(whole.resume).toBe(resume);
  expect(error.partial).toBeUndefined(); // the one made before is left as it was made
  return whole;
}

describe("errors made whole", () => {
  it("an HTTP error keeps its status, url and request id", () => {
    const whole = kept(
      new NetworkError("Connection dropped", { url: "http://127.0.0.1:8000/api/v1/data/eq-daily-ohlc", requestId: "r-1", status: 503 }),
    );
    expect(whole).toMatchObject({ url: "http://127.0.0.1:8000/api/v1/data/eq-daily-ohlc", requestId: "r-1", status: 503 });
  });

  it("each class keeps its own fields", () => {
    const resetAt = new Date("2023-12-01T00:00:00Z");
    expect(
      kept(new QuotaExceededError("Monthly requests exhausted", { status: 429, quota: "monthly_requests", used: 10, limit: 10, resetAt })),
    ).toMatchObject({ quota: "monthly_requests", used: 10, limit: 10, resetAt, status: 429 });
    expect(kept(new ValidationError("Bad", { status: 422, issues: [{ type: "x", loc: ["query", "a"], msg: "m" }] as never })))
      .toMatchObject({ issues: [{ type: "x" }] });
    expect(kept(new ContractError("Drifted", { endpoint: "GET /x", field: "a.b", received: 3 }))).toMatchObject({
      endpoint: "GET /x",
      field: "a.b",
      received: 3,
    });
    expect(kept(new NotEntitledError("Refused for 2 reasons", { reasons: ["one", "two"] }))).toMatchObject({ reasons: ["one", "two"] });
    expect(kept(new UnknownTickerError("unknown APPL", ["APPL"], { APPL: ["AAPL"] }))).toMatchObject({
      tickers: ["APPL"],
      suggestions: { APPL: ["AAPL"] },
    });
    expect(kept(new StorageError("Cannot write 'x'", "x", "no space left on the device", "ENOSPC"))).toMatchObject({
      path: "x",
      cause: "no space left on the device",
      code: "ENOSPC",
    });
    const needed = { requests: 3, rows: 10, bytes: 100 };
    const remaining = { per_minute_requests: 1, monthly_requests: 2, monthly_data_scanned: 3, monthly_data_returned: 4 };
    expect(kept(new QuotaGuardError("Stopped", needed, remaining))).toMatchObject({ needed, remaining });
  });

  it("an interrupted call made again is the session's last interrupted one", () => {
    const stopped = new InterruptedError({
      by: "interrupt",
      kind: "call",
      dataset: "eq-taq-1min",
      rows: 2,
      parts: { done: 1, total: 2, noun: "tickers" },
    });
    const whole = kept(stopped);
    expect(whole).toMatchObject({ by: "interrupt", rows: 2, parts: { done: 1, total: 2, noun: "tickers" } });
    expect(lastInterrupted()).toBe(whole);
  });
});
