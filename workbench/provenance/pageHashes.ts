/**
 * A call's row hashes, taken page by page as the pages arrive, so recording a call adds one
 * SHA-256 over 8 bytes a row at its end instead of a pass over the whole frame. Each page's
 * hashing is deferred (deferred.ts) to the moments the call waits for the service, and done
 * at the latest when the hashes are asked for (`of`), so the result never depends on whether
 * the deferred work has run. Each unit (one request of a universe) keeps its pages by offset;
 * when the unit's frame is complete its pages are laid end to end from offset 0 and cut to the
 * frame's height. A unit whose pages do not cover its frame (a cache hit, a fetch resumed
 * after an error) is hashed from the frame itself, so the result never depends on the path.
 */
import type pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { defer } from "./deferred.ts";
import { rowHashBytes } from "./rowHashes.ts";

/**
 * Row hashes of some rows, computed once: in a deferred task, or when first needed. (Hashed
 * whole: cutting a page into slices cost more, a `slice` of a wide frame being far from free,
 * than the shorter tasks saved.) `frame` is kept as a clone until hashed, so a user's in-place change to
 * the returned frame cannot reach it, and is let go once hashed.
 */
export class LazyRowHashes {
  /** How many rows it hashes. */
  readonly rows: number;
  private frame?: pl.DataFrame;
  private bytes?: Uint8Array;

  /** Hashes `frame`'s rows in a deferred task (a clone is kept until then). */
  constructor(frame: pl.DataFrame) {
    this.rows = frame.height;
    this.frame = frame.clone();
    defer(() => void this.value());
  }

  /** The rows' hashes, 8 bytes each, computed now if the task has not run yet. */
  value(): Uint8Array {
    if (this.bytes === undefined) {
      this.bytes = rowHashBytes(this.frame!);
      this.frame = undefined;
    }
    return this.bytes;
  }
}

/** A complete unit's row hashes: its pages' laid end to end and cut to `rows`, or its own frame's. */
type UnitHashes = { pages: LazyRowHashes[]; rows: number } | { frame: LazyRowHashes };

const unitBytes = (u: UnitHashes): Uint8Array =>
  "frame" in u ? u.frame.value() : Buffer.concat(u.pages.map((p) => p.value())).subarray(0, u.rows * 8);
const unitRows = (u: UnitHashes) => ("frame" in u ? u.frame.rows : u.rows);

/** The row hashes of a call's units, from their pages as they arrive, or from a unit's frame. */
export class PageHashes {
  private readonly pages = new Map<number, Map<number, LazyRowHashes>>();
  private readonly units = new Map<number, UnitHashes>();
  /** Units whose row hashes came from their pages (the others were hashed from their frame). */
  fromPages = 0;

  /** A page of unit `unit`, parsed: its rows are hashed in the next waits. */
  page(unit: number, offset: number, frame: pl.DataFrame): void {
    let byOffset = this.pages.get(unit);
    if (!byOffset) this.pages.set(unit, byOffset = new Map<number, LazyRowHashes>());
    byOffset.set(offset, new LazyRowHashes(frame));
  }

  /** Unit `unit` returned `frame`: its row hashes are fixed from its pages (or from the frame). */
  unitDone(unit: number, frame: pl.DataFrame): void {
    const byOffset = this.pages.get(unit) ?? new Map<number, LazyRowHashes>();
    const pieces: LazyRowHashes[] = [];
    let rows = 0;
    for (const offset of [...byOffset.keys()].sort((a, b) => a - b)) {
      if (offset !== rows || rows >= frame.height) break;
      const piece = byOffset.get(offset)!;
      pieces.push(piece);
      rows += piece.rows;
    }
    this.pages.delete(unit);
    const covered = rows >= frame.height && frame.width > 0;
    if (covered) this.fromPages++;
    this.units.set(unit, covered ? { pages: pieces, rows: frame.height } : { frame: new LazyRowHashes(frame) });
  }

  /**
   * The call's row hashes in row order: its units' end to end when they make up `frame`,
   * else `frame`'s own.
   */
  of(frame: pl.DataFrame, unitCount: number): Uint8Array {
    const units = [...Array(unitCount).keys()].map((i) => this.units.get(i));
    const rows = units.reduce((n, u) => n + (u ? unitRows(u) : Number.NaN), 0);
    return rows === frame.height && frame.width > 0 ? Buffer.concat(units.map((u) => unitBytes(u!))) : rowHashBytes(frame);
  }
}
