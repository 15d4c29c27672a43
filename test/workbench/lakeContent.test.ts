/**
 * A lake checked by content (issue 40, item 2): one-byte flips at ten offsets of a lake file are
 * refused by `wb.scan` (a LakeDamagedError, in a child process that never aborts) and fetched
 * again by a re-run of `wb.download` (a warning naming the file), never served; a truncated or
 * missing manifest is a LakeManifestError saying how to repair, and both repairs work; the
 * temporary files of writers that died are removed; the manifest validates against its
 * published JSON Schema and records each file once, with the SHA-256 `sha256sum` gives.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LakeDamagedError, LakeManifestError } from "../../workbench/mod.ts";
import { denoPath } from "../../scripts/paths.mjs";
import { withFullAccess } from "./support/fullAccess.ts";
import { lakeBooks } from "./support/lakeBooks.ts";
import process from "node:process";

const local = withFullAccess();
const scratch = mkdtempSync(join(tmpdir(), "lake-content-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const RANGE = { tickers: ["AAPL"], start: "2023-11-20", end: "2023-11-24" };
const FILE = join("Ticker=AAPL", "part-2023-11-20_2023-11-24.parquet");
const OFFSETS = [0.002, 0.05, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 0.97, 0.995];
const sortRows = (f: pl.DataFrame) => f.sort(["Ticker", "BarDateTime"]);
const quietly = async <T>(run: () => Promise<T>) => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    return await run();
  } finally {
    warn.mockRestore();
  }
};

/** The reference download: `base/lake` and its bookkeeping `base/.lake.workbench`. */
const base = join(scratch, "base");
let reference: pl.DataFrame;
beforeAll(async () => {
  await local.wb.download("eq-taq-1min", RANGE, join(base, "lake"));
  reference = sortRows(local.wb.scan(join(base, "lake")).collectSync());
});

/** A copy of the reference lake (table and bookkeeping); returns its table folder. */
function copyOf(name: string): string {
  cpSync(base, join(scratch, name), { recursive: true });
  return join(scratch, name, "lake");
}

/** Flips the byte at `fraction` of the file's size (past the magic bytes at both ends). */
function flipByte(file: string, fraction: number): number {
  const size = statSync(file).size;
  const offset = Math.max(4, Math.min(size - 5, Math.floor(fraction * size)));
  const fd = openSync(file, "r+");
  const byte = new Uint8Array(1);
  readSync(fd, byte, 0, 1, offset);
  byte[0] ^= 0xff;
  writeSync(fd, byte, 0, 1, offset);
  closeSync(fd);
  return offset;
}

describe("one-byte flips of a lake file", () => {
  it("wb.scan refuses each of 10 flips with a LakeDamagedError naming the file, in a child process that never aborts", () => {
    const dirs = OFFSETS.map((fraction, k) => {
      const dir = copyOf(`scan-flip-${k}`);
      flipByte(join(dir, FILE), fraction);
      return dir;
    });
    const child = spawnSync(denoPath(), ["run", "-A", "test/workbench/support/lakeScanChild.ts", join(base, "lake"), ...dirs], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(child.status, child.stderr).toBe(0); // a reader's panic would abort it (134)
    const results = child.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(results[0]).toMatchObject({ ok: true, rows: reference.height });
    expect(results.slice(1)).toHaveLength(10);
    for (const result of results.slice(1)) {
      expect(result).toMatchObject({ ok: false, error: "LakeDamagedError" });
      expect(result.message).toMatch(
        /Ticker=AAPL\/TradeDate=2023-11-20 .* is damaged: its bytes are not those written \(SHA-256 .*\) \(.*part-2023-11-20_2023-11-24\.parquet\); it is not read/,
      );
    }
  }, 120_000);

  it(
    "a re-run of wb.download fetches each of 10 flipped files again with a warning naming it, and the scan then equals the reference",
    async () => {
      for (const [k, fraction] of OFFSETS.entries()) {
        const dir = copyOf(`download-flip-${k}`);
        const offset = flipByte(join(dir, FILE), fraction);
        expect(() => local.wb.scan(dir), `offset ${offset}`).toThrow(LakeDamagedError);
        const again = await quietly(() => local.wb.download("eq-taq-1min", RANGE, dir));
        expect(again.fetched, `offset ${offset}`).toBe(4);
        expect(again.warnings).toEqual([
          expect.stringMatching(
            /^File Ticker=AAPL\/part-2023-11-20_2023-11-24\.parquet of '.*' was damaged \(its bytes are not those written \(SHA-256 .*\)\): removed; its partitions Ticker=AAPL\/TradeDate=2023-11-20 to Ticker=AAPL\/TradeDate=2023-11-24 \(4\) fetched again$/,
          ),
        ]);
        expect(sortRows(local.wb.scan(dir).collectSync()).frameEqual(reference, true), `offset ${offset}`).toBe(true);
      }
    },
    120_000,
  );
});

describe("the manifest", () => {
  it("validates against its published JSON Schema and records each file once, with its bytes, rows and the SHA-256 sha256sum gives", () => {
    const manifest = JSON.parse(readFileSync(lakeBooks(join(base, "lake")).manifest, "utf8"));
    const schema = JSON.parse(readFileSync("workbench/store/lake-manifest.schema.json", "utf8"));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
    expect(manifest.$schema).toBe(schema.$id);
    expect(manifest.writer.version).toBe(JSON.parse(readFileSync("package.json", "utf8")).version);
    const file = FILE.split("\\").join("/");
    const bytes = readFileSync(join(base, "lake", file));
    expect(manifest.files).toEqual({
      [file]: { bytes: bytes.byteLength, rows: reference.height, sha256: createHash("sha256").update(bytes).digest("hex") },
    });
    // The sizes add up to the folder's, counted once a file.
    expect(Object.values(manifest.files as Record<string, { bytes: number }>).reduce((n, f) => n + f.bytes, 0)).toBe(
      statSync(join(base, "lake", file)).size,
    );
    expect(Object.values(manifest.partitions)).toEqual(Array(4).fill({ rows: 960, file }));
  });

  it(
    "truncated: scan and download are a LakeManifestError saying how to repair; { repair: 'rebuild' } rebuilds it from the files, { repair: 'refetch' } fetches them again",
    async () => {
      for (const repair of ["rebuild", "refetch"] as const) {
        const dir = copyOf(`truncated-${repair}`);
        const manifest = lakeBooks(dir).manifest;
        truncateSync(manifest, Math.floor(statSync(manifest).size / 2));
        expect(() => local.wb.scan(dir)).toThrow(LakeManifestError);
        expect(() => local.wb.scan(dir)).toThrow(
          /its manifest '.*manifest\.json' is not readable JSON .* Repair it with the download that wrote the folder, given \{ repair: "rebuild" \}/,
        );
        await expect(local.wb.download("eq-taq-1min", RANGE, dir)).rejects.toThrow(LakeManifestError);
        const repaired = await quietly(() => local.wb.download("eq-taq-1min", RANGE, dir, { repair }));
        expect(repaired.fetched).toBe(repair === "rebuild" ? 0 : 4);
        expect(repaired.warnings[0]).toMatch(
          repair === "rebuild"
            ? /its manifest was damaged \(is not readable JSON .*\); rebuilt from its 1 file\(s\) \(4 partitions\)/
            : /set aside as '\.damaged', its 1 file\(s\) removed and the range fetched again/,
        );
        expect(sortRows(local.wb.scan(dir).collectSync()).frameEqual(reference, true)).toBe(true);
        expect(existsSync(`${manifest}.damaged`)).toBe(true);
        const again = await local.wb.download("eq-taq-1min", RANGE, dir);
        expect(again).toMatchObject({ fetched: 0, warnings: [] });
      }
    },
    60_000,
  );

  it("missing while the table holds files: the same error, and the same repair", async () => {
    const dir = copyOf("missing");
    rmSync(lakeBooks(dir).books, { recursive: true });
    expect(() => local.wb.scan(dir)).toThrow(/its manifest '.*' is missing while the folder holds 1 Parquet file\(s\)/);
    await expect(local.wb.download("eq-taq-1min", RANGE, dir)).rejects.toThrow(LakeManifestError);
    const repaired = await quietly(() => local.wb.download("eq-taq-1min", RANGE, dir, { repair: "rebuild" }));
    expect(repaired).toMatchObject({ fetched: 0, partitions: 4 });
    expect(sortRows(local.wb.scan(dir).collectSync()).frameEqual(reference, true)).toBe(true);
  });
});

describe("temporary files of writers that died", () => {
  it("are removed by the next download, which says so: in the bookkeeping folder, and the hidden ones formats 1 and 2 left in the table", async () => {
    const dir = copyOf("dead-writers");
    const dead = spawnSync("true").pid!;
    const tmp = join(lakeBooks(dir).books, "tmp");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tmp, `${encodeURIComponent("Ticker=AAPL/part-2023-11-27_2023-11-28.parquet")}.${dead}.tmp`), "half a file");
    const legacy = join(dir, "Ticker=AAPL", `.part-2023-11-27_2023-11-28.parquet.${dead}.tmp`);
    writeFileSync(legacy, "half a file");
    const again = await quietly(() => local.wb.download("eq-taq-1min", RANGE, dir));
    expect(again.fetched).toBe(0);
    expect(again.warnings).toEqual([expect.stringMatching(/^Removed 2 temporary file\(s\) of downloads that died in /)]);
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(legacy)).toBe(false);
  });
});
