import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tradingDays } from "../calendar/calendar.ts";
import { connect } from "../workbench/mod.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { startSandboxProcess } from "./support/sandboxServer.ts";
import { settle } from "./support/clientLayers.ts";
const demoDir = join(REPO_ROOT, "data", "demo");
const m = JSON.parse(readFileSync(join(demoDir, "manifest.json"), "utf8"));
const tickers = m.securities.map((s: any) => s.ticker);
const days = tradingDays(m.start, m.end).map((d) => d.date);
const sandbox = await startSandboxProcess(demoDir);
const wb = await connect({ baseUrl: sandbox.baseUrl, apiKey: "demo-full-access" });
await wb.data.eqTaq1Min(tickers, { start: days[0], end: days[19] }); settle();
console.log("=== PULLS START");
for (let i = 0; i < 3; i++) { await wb.data.eqTaq1Min(tickers, { start: days[0], end: days[19] }); settle(); }
console.log("=== PULLS END");
await sandbox.stop(); Deno.exit(0);
