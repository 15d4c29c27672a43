/**
 * The quota guard's judgement of a call from free reads (the dataset's status, read once per
 * session, and the remaining quotas, read per call): before sending when every request is
 * known, else on the first answer's headers.
 */
import type { AccountApi } from "../api/account.ts";
import type { DatasetStatus, MetaApi } from "../api/meta.ts";
import type { DataEndpoint } from "../query/endpoints.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import { estimateDownload } from "./estimate.ts";
import type { CallProgress } from "../progress/callProgress.ts";
import { type FirstAnswer, judge, projectRest, type QuotaGuardOptions } from "./quotaGuard.ts";

export class QuotaJudge {
  private readonly statuses = new Map<string, Promise<DatasetStatus>>();

  constructor(private readonly reads: { account: AccountApi; meta: MetaApi }, private readonly options: QuotaGuardOptions | false) {}

  /** Throws QuotaGuardError when the estimate of all the requests passes the threshold; sends no data request. */
  async upfront(endpoint: DataEndpoint, requests: PreparedRequest[], units: string[][]): Promise<void> {
    if (this.options === false || requests.length === 0) return;
    const [status, quotas] = await Promise.all([this.status(endpoint.dataset), this.reads.account.quotasRaw()]);
    const each = requests.map((r, i) => estimateDownload(endpoint, r, status, quotas, units[i]));
    const sum = (f: (e: (typeof each)[number]) => number) => each.reduce((n, e) => n + f(e), 0);
    const need = { requests: sum((e) => Math.max(1, Math.ceil(e.rows / requests[0].pageSize))), rows: sum((e) => e.rows), bytes: sum((e) => e.bytes) };
    const verdict = judge(endpoint.dataset, need, quotas, this.options, "before its first request");
    if (verdict) throw verdict;
  }

  /** Throws QuotaGuardError when the first answer shows the rest of the call passes the threshold. */
  async firstAnswer(endpoint: DataEndpoint, requests: PreparedRequest[], units: string[][], first: FirstAnswer, progress: CallProgress): Promise<void> {
    if (this.options === false || (units.length === 1 && first.next === null)) return; // one page: already done
    const [status, quotas] = await Promise.all([this.status(endpoint.dataset), this.reads.account.quotasRaw()]);
    const e = estimateDownload(endpoint, requests[0], status, quotas, units[0]);
    const estimate = { rows: e.rows * units.length, bytesPerRow: e.rows > 0 ? e.bytes / e.rows : 100 };
    const need = projectRest(first, estimate, units.length, requests[0].pageSize);
    progress.expect(Math.max(estimate.rows, need.rows), Math.round(estimate.rows * estimate.bytesPerRow));
    const verdict = judge(endpoint.dataset, need, quotas, this.options);
    if (verdict) throw verdict;
  }

  /** The dataset's status, read once per session. */
  private status(dataset: string): Promise<DatasetStatus> {
    let status = this.statuses.get(dataset);
    if (!status) {
      status = this.reads.meta.status(dataset);
      status.catch(() => this.statuses.delete(dataset));
      this.statuses.set(dataset, status);
    }
    return status;
  }
}
