import pl from "nodejs-polars";
import { readFileSync } from "node:fs";
const bytes = readFileSync("/tmp/page.csv");
const cols = await (await fetch("http://127.0.0.1:8791/api/v1/meta/datasets/eq-taq-1min/columns", { headers: { "X-API-KEY": "demo-full-access" } })).json();
const dt = (t: string) => t === "int64" ? pl.Int64 : t === "float64" ? pl.Float64 : t === "date" ? pl.Date : t === "datetime_ns" ? pl.Datetime("ns", "America/New_York") : t === "datetime_ms" ? pl.Datetime("ms", "America/New_York") : pl.Utf8;
const all = Object.fromEntries(cols.map((c: any) => [c.name, dt(c.data_type)]));
const noDt = Object.fromEntries(cols.filter((c: any) => !c.data_type.startsWith("datetime")).map((c: any) => [c.name, dt(c.data_type)]));
console.log(cols.map((c:any)=>c.data_type).reduce((a:any,t:string)=>(a[t]=(a[t]??0)+1,a),{}));
function time(label: string, f: () => unknown, n = 15) {
  f();
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  const cpu = process.cpuUsage(c0); const t = performance.now() - t0;
  console.log(label, (t / n).toFixed(1), "ms wall", ((cpu.user + cpu.system) / 1000 / n).toFixed(1), "ms cpu");
}
time("typed rechunk", () => pl.readCSV(bytes, { inferSchemaLength: 0, dtypes: all, rechunk: true } as never));
time("typed norechunk", () => pl.readCSV(bytes, { inferSchemaLength: 0, dtypes: all, rechunk: false } as never));
time("no datetime", () => pl.readCSV(bytes, { inferSchemaLength: 0, dtypes: noDt, rechunk: true } as never));
time("all string", () => pl.readCSV(bytes, { inferSchemaLength: 0, rechunk: true } as never));
