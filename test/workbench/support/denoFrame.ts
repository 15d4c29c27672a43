/**
 * Runs under Deno: connects the workbench to a running sandbox, fetches one ticker's ticks of
 * one day over several pages, writes the frame to a Parquet file and prints its shape and
 * dtypes as one JSON line. Usage: `deno run -A denoFrame.ts <base URL> <out.parquet>`.
 */
import process from "node:process";
import { connect } from "../../../workbench/mod.ts";

const [baseUrl, out] = process.argv.slice(2);
const wb = await connect({ baseUrl, apiKey: "demo-full-access" });
const frame = await wb.data.eqTaq("2023-11-21", "JPM.PRC", { pageSize: 500 });
frame.writeParquet(out);
const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
console.log(JSON.stringify({
  runtime: deno ? `deno ${deno.version.deno}` : "not deno",
  height: frame.height,
  width: frame.width,
  columns: frame.columns,
  dtypes: frame.dtypes.map(String),
  requests: wb.transport.requestsSent,
}));
