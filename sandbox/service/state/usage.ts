/**
 * Quota usage per team. A request is admitted by one synchronous transaction that checks
 * every quota and counts the request, so at a limit of L exactly L of N concurrent requests
 * get through. Bytes scanned and returned are added when the answer is known.
 */
import type { DatabaseSync } from "node:sqlite";
import { HttpError } from "../errors.ts";
import { getQuotaLimits, type QuotaLimits } from "./accounts.ts";
import { transaction } from "./db.ts";

export type QuotaUsage = QuotaLimits;

const minutePeriod = (now: Date) => `minute:${now.toISOString().slice(0, 16)}`;
const monthPeriod = (now: Date) => `month:${now.toISOString().slice(0, 7)}`;

/** Seconds until the next minute, and until 00:00 UTC on the 1st of next month. */
export function secondsToResets(now: Date): { minute: number; month: number; monthReset: Date } {
  const minute = 60 - now.getUTCSeconds() - (now.getUTCMilliseconds() > 0 ? now.getUTCMilliseconds() / 1000 : 0);
  const monthReset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { minute: Math.max(1, Math.ceil(minute)), month: Math.ceil((monthReset.getTime() - now.getTime()) / 1000), monthReset };
}

function counters(db: DatabaseSync, teamId: number, period: string): { requests: number; data_scanned: number; data_returned: number } {
  return (db.prepare("SELECT requests, data_scanned, data_returned FROM usage WHERE team_id = ? AND period = ?").get(teamId, period) as
    | { requests: number; data_scanned: number; data_returned: number }
    | undefined) ?? { requests: 0, data_scanned: 0, data_returned: 0 };
}

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

function quotaExceeded(message: string, limit: number, retryAfter: number): HttpError {
  return new HttpError(429, message, {
    "Retry-After": String(retryAfter),
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": "0",
    "RateLimit-Reset": String(retryAfter),
  });
}

/** Headers that tell a client where it stands in the per-minute window. */
export function rateLimitHeaders(limits: QuotaLimits, usage: QuotaUsage, now = new Date()): Record<string, string> {
  return {
    "RateLimit-Limit": String(limits.per_minute_requests),
    "RateLimit-Remaining": String(Math.max(0, limits.per_minute_requests - usage.per_minute_requests)),
    "RateLimit-Reset": String(secondsToResets(now).minute),
  };
}

/**
 * Checks every quota of the team and counts one request, atomically. Throws 429 naming the
 * quota, its usage and limit, with `Retry-After` until its reset.
 */
export function admitRequest(db: DatabaseSync, teamId: number, now = new Date()): { limits: QuotaLimits; usage: QuotaUsage } {
  return transaction(db, () => {
    const limits = getQuotaLimits(db, teamId);
    const usage = readUsage(db, teamId, now);
    const resets = secondsToResets(now);
    if (usage.monthly_requests >= limits.monthly_requests) {
      throw quotaExceeded(`Monthly request limit exceeded: ${usage.monthly_requests}/${limits.monthly_requests} requests.`, limits.monthly_requests, resets.month);
    }
    if (usage.monthly_data_scanned >= limits.monthly_data_scanned) {
      throw quotaExceeded(`Monthly data scanned limit exceeded: ${usage.monthly_data_scanned}/${limits.monthly_data_scanned} bytes.`, limits.monthly_data_scanned, resets.month);
    }
    if (usage.monthly_data_returned >= limits.monthly_data_returned) {
      throw quotaExceeded(`Monthly data returned limit exceeded: ${usage.monthly_data_returned}/${limits.monthly_data_returned} bytes.`, limits.monthly_data_returned, resets.month);
    }
    if (usage.per_minute_requests >= limits.per_minute_requests) {
      throw quotaExceeded(`Per-minute request limit exceeded: ${usage.per_minute_requests}/${limits.per_minute_requests} requests.`, limits.per_minute_requests, resets.minute);
    }
    const upsert = db.prepare(
      "INSERT INTO usage (team_id, period, requests) VALUES (?, ?, 1) ON CONFLICT (team_id, period) DO UPDATE SET requests = requests + 1",
    );
    upsert.run(teamId, minutePeriod(now));
    upsert.run(teamId, monthPeriod(now));
    return { limits, usage: { ...usage, per_minute_requests: usage.per_minute_requests + 1, monthly_requests: usage.monthly_requests + 1 } };
  });
}

/** Adds the bytes a request scanned and returned to the team's monthly counters. */
export function recordBytes(db: DatabaseSync, teamId: number, scanned: number, returned: number, now = new Date()): void {
  db.prepare(
    "INSERT INTO usage (team_id, period, data_scanned, data_returned) VALUES (?, ?, ?, ?) ON CONFLICT (team_id, period) DO UPDATE SET data_scanned = data_scanned + excluded.data_scanned, data_returned = data_returned + excluded.data_returned",
  ).run(teamId, monthPeriod(now), scanned, returned);
}
