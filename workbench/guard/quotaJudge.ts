/**
 * The quota guard: its judgement of a call from free reads (the dataset's status, read once per
 * session, and the remaining quotas, read per call), in two parts: before sending when every
 * request is known (`upfront`), else on the first answer's headers (`gate`, which holds the
 * call's other requests until then).
 */
import type { DataEndpoint } from "../query/endpoints.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import type { ServiceFacts } from "../service/facts.ts";
import { estimateContext, estimateDownload } from "./estimate.ts";
import { type FirstAnswer, FirstAnswerGate, judge, type Projection, projectRest, type QuotaGuardOptions } from "./quotaGuard.ts";

/**
 * Judges calls against the quota guard's threshold.
 *
 * @example
 * ```ts
 * const judge = new QuotaJudge(facts, { maxShare: 0.1 });
 * await judge.upfront(endpoint, requests, units); // throws QuotaGuardError past the threshold
 * ```
 */
export class QuotaJudge {
  /** Judges calls against the quotas `facts` reads, as `options` say (false: no judging). */
  constructor(private readonly facts: ServiceFacts, private readonly options: QuotaGuardOptions | false) {}

  /**
   * Throws QuotaGuardError when the estimate of all the requests passes the threshold; sends no
   * data request. Returns the estimate judged (undefined with the guard off).
   */
  async upfront(endpoint: DataEndpoint, requests: readonly PreparedRequest[], units: readonly string[][]): Promise<Projection | undefined> {
    if (this.options === false || requests.length === 0) return undefined;
    const [status, quotas] = await Promise.all([this.facts.guardStatus(endpoint.dataset), this.facts.guardQuotas()]);
    const context = await estimateContext(this.facts, status);
    const each = requests.map((r, i) => estimateDownload(endpoint, r, status, quotas, units[i], context));
    const sum = (f: (e: (typeof each)[number]) => number) => each.reduce((n, e) => n + f(e), 0);
    const need = {
      requests: sum((e) => Math.max(1, Math.ceil(e.rows / requests[0].pageSize))),
      rows: sum((e) => e.rows),
      bytes: sum((e) => e.bytes),
    };
    const verdict = judge(endpoint.dataset, need, quotas, this.options, "before its first request");
    if (verdict) throw verdict;
    return need;
  }

  /**
   * The gate of a call judged on its first answer (undefined with the guard off): its requests
   * after the first wait for the judgement, and get its QuotaGuardError past the threshold;
   * `expect` hears the totals the call is projected to reach.
   */
  gate(
    endpoint: DataEndpoint,
    requests: readonly PreparedRequest[],
    units: readonly string[][],
    expect: (rows: number, bytes: number) => void = () => {},
  ): FirstAnswerGate | undefined {
    if (this.options === false) return undefined;
    return new FirstAnswerGate((first) => this.firstAnswer(endpoint, requests, units, first, expect));
  }

  /**
   * Throws QuotaGuardError when the first answer shows the rest of the call passes the
   * threshold; `expect` hears the totals the call is projected to reach.
   */
  async firstAnswer(
    endpoint: DataEndpoint,
    requests: readonly PreparedRequest[],
    units: readonly string[][],
    first: FirstAnswer,
    expect: (rows: number, bytes: number) => void,
  ): Promise<void> {
    if (this.options === false || (units.length === 1 && first.next === null)) return; // one page: already done
    const [status, quotas] = await Promise.all([this.facts.guardStatus(endpoint.dataset), this.facts.guardQuotas()]);
    const e = estimateDownload(endpoint, requests[0], status, quotas, units[0], await estimateContext(this.facts, status));
    const estimate = { rows: e.rows * units.length, bytesPerRow: e.rows > 0 ? e.bytes / e.rows : 100 };
    const need = projectRest(first, estimate, units.length, requests[0].pageSize);
    expect(Math.max(estimate.rows, need.rows), Math.round(estimate.rows * estimate.bytesPerRow));
    const verdict = judge(endpoint.dataset, need, quotas, this.options);
    if (verdict) throw verdict;
  }
}
