/**
 * A call's row hashes, taken page by page as the pages arrive (while later pages are still on
 * the wire), so recording a call adds one SHA-256 over 8 bytes a row at its end instead of a
 * pass over the whole frame. Each unit (one request of a universe) keeps its pages by offset;
 * when the unit's frame is complete its pages are laid end to end from offset 0 and cut to the
 * frame's height. A unit whose pages do not cover its frame (a cache hit, a fetch resumed
 * after an error) is hashed from the frame itself, so the result never depends on the path.
 */
import type pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { rowHashBytes } from "./rowHashes.ts";

export class PageHashes {
  private readonly pages = new Map<number, Map<number, Uint8Array>>();
  private readonly units = new Map<number, Uint8Array>();
  /** Units whose row hashes came from their pages (the others were hashed from their frame). */
  fromPages = 0;

  /** What the pager calls with each page of unit `unit` it parsed. */
  listener(unit: number): (offset: number, frame: pl.DataFrame) => void {
    const byOffset = new Map<number, Uint8Array>();
    this.pages.set(unit, byOffset);
    return (offset, frame) => void byOffset.set(offset, rowHashBytes(frame));
  }

  /** Unit `unit` returned `frame`: its row hashes are fixed from its pages (or from the frame). */
  unitDone(unit: number, frame: pl.DataFrame): void {
    const byOffset = this.pages.get(unit) ?? new Map<number, Uint8Array>();
    const pieces: Uint8Array[] = [];
    let rows = 0;
    for (const offset of [...byOffset.keys()].sort((a, b) => a - b)) {
      if (offset !== rows || rows >= frame.height) break;
      const piece = byOffset.get(offset)!;
      pieces.push(piece);
      rows += piece.byteLength / 8;
    }
    this.pages.delete(unit);
    const covered = rows >= frame.height && frame.width > 0;
    if (covered) this.fromPages++;
    this.units.set(unit, covered ? Buffer.concat(pieces).subarray(0, frame.height * 8) : rowHashBytes(frame));
  }

  /**
   * The call's row hashes in row order: its units' end to end when they make up `frame`,
   * else `frame`'s own.
   */
  of(frame: pl.DataFrame, unitCount: number): Uint8Array {
    const units = [...Array(unitCount).keys()].map((i) => this.units.get(i));
    const rows = units.reduce((n, u) => n + (u?.byteLength ?? Number.NaN) / 8, 0);
    return rows === frame.height && frame.width > 0 ? Buffer.concat(units as Uint8Array[]) : rowHashBytes(frame);
  }
}
