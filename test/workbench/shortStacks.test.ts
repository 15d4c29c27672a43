/**
 * In a notebook (the kernel helpers set the flag in a Jupyter kernel) a workbench error's stack
 * is its message alone: the cell shows what to do, not the workbench's internal frames.
 * Elsewhere, and with MARKETDATA_DEBUG=1 in a kernel, errors keep their full stacks.
 */
import { afterEach, describe, expect, it } from "vitest";
import { QueryError, UnknownTickerError } from "../../workbench/mod.ts";

const FLAG = Symbol.for("market-workbench.shortStacks");
afterEach(() => void delete (globalThis as Record<symbol, unknown>)[FLAG]);

describe("errors in a cell", () => {
  it("show their message and hint, no internal frames, when the notebook asks for short stacks", () => {
    (globalThis as Record<symbol, unknown>)[FLAG] = true;
    const e = new UnknownTickerError("eq-taq-1min: unknown ticker APPL (did you mean 'AAPL'?)", ["APPL"], { APPL: ["AAPL"] });
    expect(e.stack).toBe("UnknownTickerError: eq-taq-1min: unknown ticker APPL (did you mean 'AAPL'?)");
  });

  it("keep their full stack elsewhere", () => {
    expect(new QueryError("bad").stack).toMatch(/\n\s+at /);
  });
});
