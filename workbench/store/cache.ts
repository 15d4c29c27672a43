/**
 * An opt-in on-disk cache of whole results, as Parquet files keyed by the request (service,
 * identity, path, filters, columns, sort, variant, maxRows). A hit sends no request and costs
 * no quota. A folder that cannot be written is read from but never written to (the first
 * refusal is reported once through `warn`).
 */
import pl from "nodejs-polars";
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { PreparedRequest } from "../query/prepare.ts";

export class FrameCache {
  private writable: boolean | undefined;
  hits = 0;
  misses = 0;

  /** `scope` separates services and identities (a digest of base URL and key, never the key). */
  constructor(readonly dir: string, private readonly scope: string, private readonly warn: (message: string) => void = console.warn) {}

  /** The cache file of a request. */
  pathFor(request: PreparedRequest): string {
    const params = [...request.params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = JSON.stringify({ scope: this.scope, path: request.path, params, maxRows: request.maxRows, columns: request.columns.map((c) => c.name) });
    return join(this.dir, `${request.dataset}-${createHash("sha256").update(key).digest("hex").slice(0, 32)}.parquet`);
  }

  private canWrite(): boolean {
    if (this.writable === undefined) {
      try {
        mkdirSync(this.dir, { recursive: true });
        accessSync(this.dir, constants.W_OK);
        this.writable = true;
      } catch (e) {
        this.writable = false;
        this.warn(`Cache folder '${this.dir}' is not writable (${(e as Error).message}); results will not be cached`);
      }
    }
    return this.writable;
  }

  async getOrFetch(request: PreparedRequest, fetch: () => Promise<pl.DataFrame>): Promise<pl.DataFrame> {
    const path = this.pathFor(request);
    if (existsSync(path)) {
      this.hits++;
      return pl.readParquet(path);
    }
    this.misses++;
    const frame = await fetch();
    if (this.canWrite()) {
      const partial = `${path}.${process.pid}.partial`;
      frame.writeParquet(partial);
      renameSync(partial, path);
    }
    return frame;
  }
}
