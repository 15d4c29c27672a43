import pl from "nodejs-polars";
import { mkdirSync, rmSync, readdirSync } from "node:fs";
import { rename, stat, mkdir } from "node:fs/promises";
const file = process.argv[2];
const all = pl.readParquet(file);
const frames = Array.from({ length: 13 }, (_, i) => all.slice(i * 960, 960));
const dir = "/tmp/zzw"; rmSync(dir, { recursive: true, force: true }); mkdirSync(dir);
async function time(label: string, f: (i: number, fr: pl.DataFrame) => Promise<unknown> | unknown, n = 130) {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < n; i++) await f(i, frames[i % 13]);
  const cpu = process.cpuUsage(c0); const t = performance.now() - t0;
  console.log(label.padEnd(30), (t / n).toFixed(2), "ms wall", ((cpu.user + cpu.system) / 1000 / n).toFixed(2), "ms cpu per file");
}
console.log(all.shape, frames[0].shape);
await time("writeParquet snappy", (i, f) => f.writeParquet(`${dir}/a${i}.parquet`, { compression: "snappy" }));
await time("writeParquet uncompressed", (i, f) => f.writeParquet(`${dir}/b${i}.parquet`, { compression: "uncompressed" }));
await time("sink snappy", (i, f) => f.lazy().sinkParquet(`${dir}/c${i}.parquet`, { compression: "snappy" }).collect());
await time("sink snappy nostats", (i, f) => f.lazy().sinkParquet(`${dir}/d${i}.parquet`, { compression: "snappy", statistics: false }).collect());
await time("sink drop2 +mkdir/rename/stat", async (i, f) => { const d = `${dir}/e${i}/x`; await mkdir(d, { recursive: true }); await f.lazy().drop(["Ticker","TradeDate"]).sinkParquet(`${d}/.t`, { compression: "snappy" }).collect(); await rename(`${d}/.t`, `${d}/p.parquet`); return (await stat(`${d}/p.parquet`)).size; });
await time("hashRows", (i, f) => f.hashRows(1,2,3,4).toTypedArray());
const big = pl.concat(Array.from({ length: 20 }, () => frames[0]));
await time("one 19200-row writeParquet", (i) => big.writeParquet(`${dir}/g${i}.parquet`, { compression: "snappy" }), 13);
await time("one 19200-row sink", (i) => big.lazy().sinkParquet(`${dir}/h${i}.parquet`, { compression: "snappy" }).collect(), 13);
