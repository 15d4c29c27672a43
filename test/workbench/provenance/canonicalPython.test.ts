/**
 * The canonical frame hash, chosen for provenance (`connect({ provenance: { hash: "canonical" } })`)
 * and reproduced in Python by the lines docs/provenance.md gives: run here, on Parquet files the
 * workbench wrote, against the workbench's own hash. Skipped, saying why, where Python lacks
 * Polars or NumPy.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pl from "nodejs-polars";
import { afterAll, describe, expect, it } from "vitest";
import { connect, frameHash } from "../../../workbench/mod.ts";
import { withFullAccess } from "../support/fullAccess.ts";

const local = withFullAccess();
const scratch = mkdtempSync(join(tmpdir(), "canonical-python-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const probe = spawnSync("python3", ["-c", "import polars, numpy"], { encoding: "utf8" });
const why = probe.error ? "no python3" : probe.status !== 0 ? "python3 lacks polars or numpy" : undefined;

/** The documented Python, from docs/provenance.md, then a call of it on each file given. */
function pythonHashes(files: string[]): string[] {
  const doc = readFileSync("docs/provenance.md", "utf8");
  // A blank line may follow the marker (deno fmt writes one before a fence).
  const code = /<!-- canonical-hash\.py[^>]*-->\s*```python\n([\s\S]*?)\n```/.exec(doc)?.[1];
  if (!code) throw new Error("docs/provenance.md has no canonical-hash.py block");
  const script = join(scratch, "canonical.py");
  writeFileSync(script, `${code}\nimport sys\nfor f in sys.argv[1:]: print(canonical_hash(pl.read_parquet(f)))\n`);
  const run = spawnSync("python3", [script, ...files], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim().split("\n");
}

describe.skipIf(why !== undefined)(`the canonical hash in Python${why ? ` (skipped: ${why})` : ""}`, () => {
  it("gives the workbench's hash for a frame of every dtype, nulls, NaN, -0 and text beyond ASCII included", () => {
    const df = pl.DataFrame({
      i: [1, null, -3],
      u: pl.Series("u", [1, 2, 3], pl.UInt64),
      f: [1.5, NaN, null],
      g: pl.Series("g", [-0.0, 2.5, NaN], pl.Float32),
      s: ["a", null, "é€😀"],
      b: [true, null, false],
      d: pl.Series("d", [new Date("2023-11-20"), null, new Date("1969-12-31")], pl.Date),
      l: pl.Series("l", [["x", "yé"], [], ["z"]], pl.List(pl.String)),
    }).withColumns(
      pl.col("i").cast(pl.Int64),
      pl.lit(1700490600123456789n).cast(pl.Int64).cast(pl.Datetime("ns", "America/New_York")).alias("t"),
      pl.lit(1700490600123).cast(pl.Int64).cast(pl.Datetime("ms")).alias("m"),
    );
    const file = join(scratch, "every-dtype.parquet");
    df.writeParquet(file);
    expect(pythonHashes([file])).toEqual([frameHash(df, { scheme: "canonical" })]);
  });

  it("connect({ provenance: { hash: 'canonical' } }) records each call's and partition's canonical hash, which the Python reproduces from the frame", async () => {
    const wb = await connect({
      baseUrl: local.sb.baseUrl,
      fetch: local.sb.fetch,
      apiKey: "demo-full-access",
      provenance: { hash: "canonical" },
    });
    const bars = await wb.data.eqTaq1Min("AAPL", { date: "2023-11-21" });
    await wb.download("eq-daily-ohlc", { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-21" }, join(scratch, "lake"));
    const manifest = wb.provenance();
    expect(manifest.hash).toMatchObject({ scheme: "rows/1", canonical: "canonical/1" });
    const call = manifest.calls[0];
    expect(call.canonicalHash).toBe(frameHash(bars, { scheme: "canonical" }));
    expect(call.frameHash).toBe(frameHash(bars));
    const partitions = manifest.downloads![0].fetched;
    expect(partitions.map((p) => p.canonicalHash)).toEqual([
      expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    ]);
    const file = join(scratch, "bars.parquet");
    bars.writeParquet(file);
    const day = wb.scan(join(scratch, "lake")).filter(pl.col("TradeDate").eq(pl.lit(new Date("2023-11-21")))).collectSync();
    const dayFile = join(scratch, "day.parquet");
    day.writeParquet(dayFile);
    expect(pythonHashes([file, dayFile])).toEqual([
      call.canonicalHash,
      partitions.find((p) => p.path.endsWith("2023-11-21"))!.canonicalHash,
    ]);
  });
});
