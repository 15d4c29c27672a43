/**
 * Runs under Deno: signs the hand-built day of tickFixture.ts with `signTrades` and prints
 * each column as one JSON line, with its dtype and null count. Deno's Node-API turns a null
 * into 0 where Node keeps it (in integer Series built from arrays), so what the notebooks
 * get can only be seen here. Usage: `deno run -A denoSign.ts`.
 */
import { signTrades } from "../../../../workbench/research/leeReady.ts";
import { TICKS } from "./tickFixture.ts";

const signed = signTrades(TICKS);
const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
console.log(JSON.stringify({
  runtime: deno ? `deno ${deno.version.deno}` : "not deno",
  columns: Object.fromEntries(["Bid", "Ask", "Mid", "Sign", "SignedBy", "Excluded"].map((name) => {
    const column = signed.getColumn(name);
    return [name, { dtype: String(column.dtype), nulls: column.nullCount(), values: column.toArray() }];
  })),
}));
