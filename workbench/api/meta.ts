/** `wb.meta`: GET /api/v1/meta/datasets, /{id}/status and /{id}/columns. */
import pl from "nodejs-polars";
import * as contract from "../../contract/meta.ts";
import { META } from "../query/endpoints.ts";
import type { ColumnInfo } from "../frames/frames.ts";
import type { Transport } from "../http/transport.ts";
import { displayAs } from "../display/kind.ts";

/** A dataset's availability, as the contract (contract/meta.ts) describes it. */
export type DatasetStatus = contract.DatasetStatus;

export class MetaApi {
  private readonly schemas = new Map<string, Promise<ColumnInfo[]>>();
  private readonly statuses = new Map<string, Promise<DatasetStatus>>();
  constructor(private readonly transport: Transport) {}

  /**
   * The datasets this identity may reach (sends GET /api/v1/meta/datasets).
   *
   * @example
   * ```ts
   * const ds = await wb.meta.datasets(); // dataset_id, dataset_text_id, dataset_name, data_group, vendor
   * ```
   */
  async datasets(): Promise<pl.DataFrame> {
    const rows = await this.transport.getJson(META.datasets, contract.DatasetList);
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
    return this.transport.getJson(META.status(id), contract.DatasetStatus).then((s) => displayAs(s, "dataset-status"));
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
    let s = this.statuses.get(id);
    if (!s) {
      s = this.status(id);
      s.catch(() => this.statuses.delete(id));
      this.statuses.set(id, s);
    }
    return s;
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

  /** The schema as records, cached for the session. */
  schema(id: string): Promise<ColumnInfo[]> {
    let s = this.schemas.get(id);
    if (!s) {
      s = this.transport.getJson(META.columns(id), contract.ColumnList);
      s.catch(() => this.schemas.delete(id));
      this.schemas.set(id, s);
    }
    return s;
  }
}
