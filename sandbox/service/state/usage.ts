/**
 * Quota usage per team, counted when an answer is committed. A data request is first admitted
 * by one transaction that checks every quota against the counted requests plus those in
 * flight and takes a place in flight (so at a limit of L exactly L of N concurrent requests
 * get through, whichever worker serves them); once its answer is ready, one transaction counts
 * the request and its bytes and frees the place, if the answer's bytes fit in what is left of
 * the monthly returned-bytes quota (the route shortens a page that does not: see
 * query/answer.ts's pageWithin). A request that fails (4xx after admission,
 * 5xx, a budget timeout) frees its place without counting. Places left by a killed process
 * are freed at start (`clearInFlight`).
 */
import type { DatabaseSync } from "node:sqlite";
import { HttpError } from "../errors.ts";
import { getQuotaLimits, type QuotaLimits } from "./accounts.ts";
import { statement, transaction } from "./db.ts";

export type QuotaUsage = QuotaLimits;

const minutePeriod = (now: Date) => `minute:${now.toISOString().slice(0, 16)}`;
const monthPeriod = (now: Date) => `month:${now.toISOString().slice(0, 7)}`;

/** Seconds until the next minute, and until 00:00 UTC on the 1st of next month. */
function secondsToResets(now: Date): { minute: number; month: number; monthReset: Date } {
  const minute = 60 - now.getUTCSeconds() - (now.getUTCMilliseconds() > 0 ? now.getUTCMilliseconds() / 1000 : 0);
  const monthReset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { minute: Math.max(1, Math.ceil(minute)), month: Math.ceil((monthReset.getTime() - now.getTime()) / 1000), monthReset };
}

interface Counters {
  requests: number;
  data_scanned: number;
  data_returned: number;
  in_flight: number;
}

function counters(db: DatabaseSync, teamId: number, period: string): Counters {
  return (statement(db, "SELECT requests, data_scanned, data_returned, in_flight FROM usage WHERE team_id = ? AND period = ?").get(
    teamId,
    period,
  ) as Counters | undefined) ??
    { requests: 0, data_scanned: 0, data_returned: 0, in_flight: 0 };
}

/** Committed usage: answered requests and their bytes (requests in flight are not usage yet). */
export function readUsage(db: DatabaseSync, teamId: number, now = new Date()): QuotaUsage {
  const minute = counters(db, teamId, minutePeriod(now));
  const month = counters(db, teamId, monthPeriod(now));
  return {
    per_minute_requests: minute.requests,
    monthly_requests: month.requests,
    monthly_data_scanned: month.data_scanned,
    monthly_data_returned: month.data_returned,
  };
}

/** A request admitted and not yet answered: where its place in flight is held. */
export interface Admission {
  teamId: number;
  minute: string;
  month: string;
  limits: QuotaLimits;
  /** Requests of this minute, counted or in flight, this one included. */
  minuteTaken: number;
  /** Bytes the team could still be returned this month when the request was admitted (others' answers may take some meanwhile). */
  returnedLeftAtAdmission: number;
}

/** Where a team stands against its limits, from the counted requests plus those in flight. */
interface Standing {
  limits: QuotaLimits;
  usage: QuotaUsage;
}

function standing(db: DatabaseSync, teamId: number, now: Date): Standing {
  const minute = counters(db, teamId, minutePeriod(now));
  const month = counters(db, teamId, monthPeriod(now));
  return {
    limits: getQuotaLimits(db, teamId),
    usage: {
      per_minute_requests: minute.requests + minute.in_flight,
      monthly_requests: month.requests + month.in_flight,
      monthly_data_scanned: month.data_scanned,
      monthly_data_returned: month.data_returned,
    },
  };
}

/** Throws the 429 of the first exhausted quota, with the headers of where the team stands. */
function refuseWhenExhausted({ limits, usage }: Standing, now: Date): void {
  const resets = secondsToResets(now);
  const refuse = (message: string, retryAfter: number, minuteRemaining: number) =>
    new HttpError(429, message, { "Retry-After": String(retryAfter), ...quotaHeaders(limits, usage, minuteRemaining, now) });
  const minuteRemaining = Math.max(0, limits.per_minute_requests - usage.per_minute_requests);
  if (usage.monthly_requests >= limits.monthly_requests) {
    throw refuse(
      `Monthly request limit exceeded: ${usage.monthly_requests}/${limits.monthly_requests} requests.`,
      resets.month,
      minuteRemaining,
    );
  }
  if (usage.monthly_data_scanned >= limits.monthly_data_scanned) {
    throw refuse(
      `Monthly data scanned limit exceeded: ${usage.monthly_data_scanned}/${limits.monthly_data_scanned} bytes.`,
      resets.month,
      minuteRemaining,
    );
  }
  if (usage.monthly_data_returned >= limits.monthly_data_returned) {
    throw refuse(
      `Monthly data returned limit exceeded: ${usage.monthly_data_returned}/${limits.monthly_data_returned} bytes.`,
      resets.month,
      minuteRemaining,
    );
  }
  if (usage.per_minute_requests >= limits.per_minute_requests) {
    throw refuse(
      `Per-minute request limit exceeded: ${usage.per_minute_requests}/${limits.per_minute_requests} requests.`,
      resets.minute,
      0,
    );
  }
}

/**
 * Checks every quota of the team and takes a place in flight, atomically. Throws 429 naming
 * the quota, its usage and limit, with `Retry-After` until its reset.
 *
 * @example
 * ```ts
 * const admission = admitRequest(db, teamId);
 * try { answer = await run(); } catch (e) { releaseRequest(db, admission); throw e; }
 * commitRequest(db, admission, scannedBytes, answer.byteLength);
 * ```
 */
export function admitRequest(db: DatabaseSync, teamId: number, now = new Date()): Admission {
  return transaction(db, () => {
    const current = standing(db, teamId, now);
    refuseWhenExhausted(current, now);
    const take = statement(
      db,
      "INSERT INTO usage (team_id, period, in_flight) VALUES (?, ?, 1) ON CONFLICT (team_id, period) DO UPDATE SET in_flight = in_flight + 1",
    );
    const admission = {
      teamId,
      minute: minutePeriod(now),
      month: monthPeriod(now),
      limits: current.limits,
      minuteTaken: current.usage.per_minute_requests + 1,
      returnedLeftAtAdmission: Math.max(0, current.limits.monthly_data_returned - current.usage.monthly_data_returned),
    };
    take.run(teamId, admission.minute);
    take.run(teamId, admission.month);
    return admission;
  });
}

/** The quota check of a request that will not run (HEAD): throws the 429 a GET would get, counts nothing. */
export function checkQuota(db: DatabaseSync, teamId: number, now = new Date()): Record<string, string> {
  const current = standing(db, teamId, now);
  refuseWhenExhausted(current, now);
  return quotaHeaders(
    current.limits,
    current.usage,
    Math.max(0, current.limits.per_minute_requests - current.usage.per_minute_requests),
    now,
  );
}

/** Frees the place of a request that got no answer; it is not counted. */
export function releaseRequest(db: DatabaseSync, admission: Admission): void {
  transaction(db, () => {
    const free = statement(db, "UPDATE usage SET in_flight = MAX(0, in_flight - 1) WHERE team_id = ? AND period = ?");
    free.run(admission.teamId, admission.minute);
    free.run(admission.teamId, admission.month);
  });
}

/**
 * Bytes the team may still be returned this month: its limit less the bytes of the answers
 * counted so far.
 *
 * @example
 * ```ts
 * const page = pageWithin(answer, returnedBytesLeft(db, admission));
 * ```
 */
export function returnedBytesLeft(db: DatabaseSync, admission: Admission): number {
  return Math.max(0, admission.limits.monthly_data_returned - counters(db, admission.teamId, admission.month).data_returned);
}

/**
 * The 429 of a page that does not fit in the monthly returned-bytes quota, not even its first
 * row (`needed` bytes of body), with the headers of where the team stands.
 */
export function returnedBytesRefusal(db: DatabaseSync, admission: Admission, needed: number, now = new Date()): HttpError {
  const { limits, usage } = standing(db, admission.teamId, now);
  const used = usage.monthly_data_returned;
  const message =
    `Monthly data returned limit exceeded: ${used}/${limits.monthly_data_returned} bytes; the next page needs ${needed} bytes even cut to its first row.`;
  return new HttpError(429, message, {
    "Retry-After": String(secondsToResets(now).month),
    ...quotaHeaders(limits, usage, Math.max(0, limits.per_minute_requests - admission.minuteTaken), now),
  });
}

/**
 * Counts an answered request and its bytes and frees its place, in one transaction, unless
 * its `returned` bytes no longer fit in the monthly returned-bytes quota (others' answers
 * counted meanwhile): then nothing is counted and undefined is returned, for the caller to fit
 * the page again. Returns the headers that tell the client where it stands (see quotaHeaders).
 */
export function commitRequest(
  db: DatabaseSync,
  admission: Admission,
  scanned: number,
  returned: number,
  now = new Date(),
): Record<string, string> | undefined {
  return transaction(db, () => {
    // The month's row first, and only if the bytes still fit: nothing else is written when not.
    const counted = statement(
      db,
      "UPDATE usage SET requests = requests + 1, in_flight = MAX(0, in_flight - 1), data_scanned = data_scanned + ?, data_returned = data_returned + ? WHERE team_id = ? AND period = ? AND data_returned + ? <= ?",
    )
      .run(scanned, returned, admission.teamId, admission.month, returned, admission.limits.monthly_data_returned);
    if (counted.changes === 0) return undefined;
    statement(db, "UPDATE usage SET requests = requests + 1, in_flight = MAX(0, in_flight - 1) WHERE team_id = ? AND period = ?").run(
      admission.teamId,
      admission.minute,
    );
    const month = counters(db, admission.teamId, admission.month);
    const usage = {
      per_minute_requests: admission.minuteTaken,
      monthly_requests: month.requests + month.in_flight,
      monthly_data_scanned: month.data_scanned,
      monthly_data_returned: month.data_returned,
    };
    return quotaHeaders(admission.limits, usage, Math.max(0, admission.limits.per_minute_requests - admission.minuteTaken), now);
  });
}

/** Frees every place in flight: at start, no request of an earlier process can still be answered. */
export function clearInFlight(db: DatabaseSync): void {
  statement(db, "UPDATE usage SET in_flight = 0 WHERE in_flight != 0").run();
}

/** Share of a monthly quota past which answers carry X-Quota-Warning. */
const QUOTA_WARNING_SHARE = 0.9;

/**
 * Headers of where a team stands: `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` for the per-minute window only; `X-Quota-Monthly-{Requests,Scanned-Bytes,
 * Returned-Bytes}-{Limit,Remaining}` and `X-Quota-Monthly-Reset` (seconds) for the month; and
 * `X-Quota-Warning` once a monthly quota is more than 90% used.
 */
function quotaHeaders(limits: QuotaLimits, usage: QuotaUsage, minuteRemaining: number, now = new Date()): Record<string, string> {
  const resets = secondsToResets(now);
  const monthly = [
    ["Requests", "monthly requests", limits.monthly_requests, usage.monthly_requests],
    ["Scanned-Bytes", "monthly data scanned (bytes)", limits.monthly_data_scanned, usage.monthly_data_scanned],
    ["Returned-Bytes", "monthly data returned (bytes)", limits.monthly_data_returned, usage.monthly_data_returned],
  ] as const;
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(limits.per_minute_requests),
    "RateLimit-Remaining": String(minuteRemaining),
    "RateLimit-Reset": String(resets.minute),
    "X-Quota-Monthly-Reset": String(resets.month),
  };
  const warnings: string[] = [];
  for (const [name, label, limit, used] of monthly) {
    headers[`X-Quota-Monthly-${name}-Limit`] = String(limit);
    headers[`X-Quota-Monthly-${name}-Remaining`] = String(Math.max(0, limit - used));
    if (used > QUOTA_WARNING_SHARE * limit) {
      warnings.push(`${label} ${Math.min(100, Math.floor((100 * used) / limit))}% used (${used} of ${limit})`);
    }
  }
  if (warnings.length > 0) headers["X-Quota-Warning"] = `${warnings.join("; ")}; resets ${resets.monthReset.toISOString()}`;
  return headers;
}
