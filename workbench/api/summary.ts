/**
 * What a workbench is, in a few lines: the service, the identity behind its key, the datasets it
 * may read and this month's quota, read free (account reads spend no quota) on the transport
 * of the workbench's own reads, so a data call's request count is untouched. Never the key: a
 * notebook shows `wb` as this card.
 */
import * as contract from "../../contract/mod.ts";
import { displayAs } from "../display/kind.ts";
import { ACCOUNT } from "../query/endpoints.ts";
import type { ServiceFacts } from "../service/facts.ts";

/** What `wb.summary()` returns (a card in a notebook). */
export interface WorkbenchSummary {
  /** The service's base URL (no user name or password). */
  service: string;
  /** The identity behind the key, when it could be read. */
  identity?: { id: number; name: string };
  /** The datasets the identity may read (text ids), when they could be read. */
  datasets?: string[];
  /** This month's usage and limits, when they could be read. */
  quotas?: contract.Quotas;
  /** The result cache's folder, or undefined when there is none. */
  cache?: string;
  /** Whether data calls are recorded for `wb.provenance()`. */
  recording: boolean;
  /** Why the account could not be read (the key refused, the service unreachable), when it could not. */
  problem?: string;
}

/** How long the card waits for the account: a cell showing `wb` must not hang on a slow service. */
const READ_DEADLINE_MS = 5_000;

/** `read`, or a rejection naming the deadline when it takes longer (the read itself goes on, unheard). */
function withDeadline<T>(read: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READ_DEADLINE_MS / 1000} s`)), READ_DEADLINE_MS);
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

/** The first rejection's message, else undefined. */
function problemOf(results: PromiseSettledResult<unknown>[]): string | undefined {
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  return failed ? String((failed.reason as Error)?.message ?? failed.reason) : undefined;
}

/**
 * Reads the summary of a workbench: identity, data access rules and quotas (three free reads,
 * each given 5 s: a slow or silent service makes a summary with `problem`, not a hanging cell).
 *
 * @example
 * ```ts
 * const s = await readSummary(facts, { service: "http://127.0.0.1:8000", recording: true });
 * s.identity?.name;
 * ```
 */
export async function readSummary(
  facts: ServiceFacts,
  local: Pick<WorkbenchSummary, "service" | "cache" | "recording">,
): Promise<WorkbenchSummary> {
  const free = facts.freeTransport;
  const results = await Promise.allSettled([
    withDeadline(free.getJson(ACCOUNT.identity, contract.Identity)),
    withDeadline(free.getJson(ACCOUNT.dataAccessRules, contract.AccessRules)),
    withDeadline(free.getJson(ACCOUNT.quotas, contract.Quotas)),
  ]);
  const [identity, rules, quotas] = results;
  const summary: WorkbenchSummary = { ...local };
  if (identity.status === "fulfilled") summary.identity = { id: identity.value.identity_id, name: identity.value.name };
  if (rules.status === "fulfilled") summary.datasets = rules.value.map((r) => r.dataset_text_id);
  if (quotas.status === "fulfilled") summary.quotas = quotas.value;
  const problem = problemOf(results);
  if (problem) summary.problem = problem;
  return displayAs(summary, "workbench-summary");
}
