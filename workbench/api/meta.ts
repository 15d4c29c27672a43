/** `wb.meta`: GET /api/v1/meta/datasets, /{id}/status and /{id}/columns. */
import pl from "nodejs-polars";
import * as contract from "../../contract/meta.ts";
import type { DatasetStatus } from "../../contract/meta.ts";
import { META } from "../query/endpoints.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import { displayAs } from "../display/kind.ts";
import { QueryError } from "../errors/base.ts";
import type { ServiceFacts } from "../service/facts.ts";

// The contract's own type (documented there), re-exported so that `wb.meta`'s signatures name
// a type a notebook can import.
export type { DatasetStatus };

/** A dataset id given to `wb.meta`: text that is not empty, else a QueryError before any request. */
function checkedId(id: unknown): string {
  if (typeof id !== "string" || id.trim() === "") {
    throw new QueryError(
      `The dataset id is ${typeof id === "string" ? "empty" : String(id)}: give one such as "eq-taq-1min" (wb.meta.datasets() lists them)`,
    );
  }
  return id;
}

/**
 * `wb.meta`: the datasets, their availability and their column schemas. Metadata reads spend
 * no quota.
 *
 * @example
 * ```ts
 * const cols = await wb.meta.columns("eq-daily-ohlc");
 * ```
 */
export class MetaApi {
  readonly #facts: ServiceFacts;

  /**
   * Made by `connect()`; a notebook uses `wb.meta`.
   *
   * @param facts the session's service facts (schemas and availability are cached there)
   * @internal
   */
  constructor(facts: ServiceFacts) {
    this.#facts = facts;
  }

  /**
   * The datasets this identity may reach (sends GET /api/v1/meta/datasets).
   *
   * @example
   * ```ts
   * const ds = await wb.meta.datasets(); // dataset_id, dataset_text_id, dataset_name, data_group, vendor
   * ```
   */
  async datasets(): Promise<pl.DataFrame> {
    const rows = await this.#facts.transport.getJson(META.datasets, contract.DatasetList);
    const names = ["dataset_id", "dataset_text_id", "dataset_name", "data_group", "vendor"] as const;
    return pl.DataFrame(Object.fromEntries(names.map((n) => [n, pl.Series(n, rows.map((r) => r[n]), pl.String)])));
  }

  /**
   * Availability of a dataset (sends GET /api/v1/meta/datasets/{id}/status).
   *
   * @example
   * ```ts
   * const s = await wb.meta.status("eq-taq-1min"); // { first_available_date, last_available_date, row_count, ... }
   * ```
   */
  status(id: string): Promise<DatasetStatus> {
    return Promise.resolve().then(() => this.#facts.status(checkedId(id))).then((s) => displayAs(s, "dataset-status"));
  }

  /**
   * The status as first read this session: what the checks before a data call compare dates
   * with (free, and asked once per dataset).
   *
   * @example
   * ```ts
   * const { first_available_date, last_available_date } = await wb.meta.availability("eq-taq-1min");
   * ```
   */
  availability(id: string): Promise<DatasetStatus> {
    return Promise.resolve().then(() => this.#facts.availability(checkedId(id))).then((s) => displayAs(s, "dataset-status"));
  }

  /**
   * The column schema of a dataset, one row per column (sends GET .../{id}/columns once per session).
   *
   * @example
   * ```ts
   * const cols = await wb.meta.columns("eq-daily-ohlc"); // name, data_type, description, nullable
   * ```
   */
  async columns(id: string): Promise<pl.DataFrame> {
    const cols = await this.schema(id);
    return pl.DataFrame({
      name: cols.map((c) => c.name),
      data_type: cols.map((c) => c.data_type),
      description: cols.map((c) => c.description ?? ""),
      nullable: cols.map((c) => c.nullable ?? true),
    });
  }

  /**
   * The schema as records, cached for the session.
   *
   * @example
   * ```ts
   * const types = (await wb.meta.schema("eq-daily-ohlc")).map((c) => c.data_type);
   * ```
   */
  schema(id: string): Promise<ColumnInfo[]> {
    return Promise.resolve().then(() => this.#facts.schema(checkedId(id)));
  }
}
