/**
 * The guard stage of a data call, entered once per call, after its units are prepared and
 * before any data request: the dates of every request against the dataset's availability and
 * its tickers (case always; the lookup files or option roots where this session has them, and
 * loaded for a call of several requests: less than the empty pages a misspelt ticker costs),
 * then the quota. A call whose requests are all known up front (a universe, a download) is
 * judged before sending; another is given a gate that holds its requests after the first until
 * the first answer is judged (quotaJudge.ts holds both parts of the quota guard).
 */
import type { DataEndpoint } from "../query/endpoints.ts";
import type { CallPlan } from "../query/plan.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import type { ServiceFacts } from "../service/facts.ts";
import type { FirstAnswerGate } from "./quotaGuard.ts";
import type { QuotaJudge } from "./quotaJudge.ts";
import { checkWithService } from "./serviceChecks.ts";
import { checkTickersUpfront } from "./tickers.ts";

/** How a call passes the guard: up front or on its first answer, and whether it is forced past the quota. */
export interface GuardCall {
  /** The call's plan. */
  plan: CallPlan;
  /** Its prepared requests, one per unit. */
  requests: PreparedRequest[];
  /** Every request is known before sending (a universe, a download): judged now. */
  upfront: boolean;
  /** The call passes the quota guard (`force: true`, or a resume). */
  force: boolean;
  /** The dates and tickers passed: the call's requests may be told (its "prepared" event). */
  onChecked?: () => void;
  /** The rows and bytes the call is expected to take, once the first answer is judged. */
  onExpected?: (rows: number, bytes: number) => void;
}

/** What the guard lets through: the rows expected (judged up front) and the gate of the first answer, if any. */
export interface Guarded {
  /** The rows the quota judge expects, when judged up front. */
  expectedRows?: number;
  /** The gate that judges the quota on the call's first answer, when not judged up front. */
  gate?: FirstAnswerGate;
}

/**
 * The guard of one workbench.
 *
 * @example
 * ```ts
 * const guard = new GuardStage(facts, new QuotaJudge(facts, {}));
 * const { gate } = await guard.enter({ plan, requests, upfront: false, force: false });
 * ```
 */
export class GuardStage {
  /** The guard over the service's `facts` and the session's `quota` judge. */
  constructor(private readonly facts: ServiceFacts, private readonly quota: QuotaJudge) {}

  /**
   * The checks that need what the service says (dates, tickers) of every request; each request
   * learns the tickers it asks for (judged from its answer when absent from it). No quota is
   * judged: `wb.estimate` takes these alone.
   */
  async check(endpoint: DataEndpoint, requests: readonly PreparedRequest[]): Promise<void> {
    const { facts } = this;
    const dataset = endpoint.dataset;
    await Promise.all(requests.map(async (request) => {
      const schema = await facts.schema(dataset);
      request.tickers = await checkWithService({ endpoint, request, schema, status: () => facts.availability(dataset), tickers: facts });
    }));
  }

  /** The whole stage: dates and tickers, then the quota (throws QuotaGuardError past its threshold). */
  async enter(call: GuardCall): Promise<Guarded> {
    const { plan, requests } = call;
    await this.check(plan.endpoint, requests);
    call.onChecked?.();
    if (call.upfront && plan.units.length > 0) {
      // Every request is known: judged before any is sent, so none waits behind the first answer.
      const expectedRows = call.force ? undefined : (await this.quota.upfront(plan.endpoint, requests, plan.units))?.rows;
      // A misspelt ticker would cost an empty page each: judged before sending (the lookup files cost one request per session).
      await checkTickersUpfront(this.facts, plan.endpoint.dataset, requests.map((r) => r.tickers));
      return { expectedRows };
    }
    return { gate: call.force ? undefined : this.quota.gate(plan.endpoint, requests, plan.units, call.onExpected) };
  }
}
