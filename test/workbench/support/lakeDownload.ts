/**
 * Runs under Deno: a universe download into a folder, for a test to kill midway. Usage:
 * `deno run -A lakeDownload.ts <base URL> <dir> <JSON query> [chunkDays]`; prints the result.
 */
import process from "node:process";
import { connect } from "../../../workbench/mod.ts";

const [baseUrl, dir, json, chunkDays] = process.argv.slice(2);
const wb = await connect({ baseUrl, apiKey: "demo-full-access" });
const result = await wb.download("eq-taq-1min", JSON.parse(json), dir, { chunkDays: chunkDays ? Number(chunkDays) : undefined });
console.log(JSON.stringify(result));
