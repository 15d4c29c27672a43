/**
 * A page ready before admission (cut from a written result) is admitted and counted in one
 * transaction (countAnsweredRequest): the same counts, the same quota headers and the same 429s
 * as admitting then committing it (admitRequest, commitRequest), on two state files fed the
 * same requests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openState, statement } from "../../../sandbox/service/state/db.ts";
import { admitRequest, commitRequest, countAnsweredRequest, readUsage } from "../../../sandbox/service/state/usage.ts";

const scratch = mkdtempSync(join(tmpdir(), "usage-one-step-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A state with one team of these limits; returns the database and the team's id. */
function stateWithTeam(name: string, limits: { perMinute: number; monthly: number; scanned: number; returned: number }) {
  const db = openState(join(scratch, `${name}.sqlite`));
  const team = statement(db, "INSERT INTO teams (name, per_minute_requests, monthly_requests, monthly_data_scanned, monthly_data_returned) VALUES (?, ?, ?, ?, ?)")
    .run(name, limits.perMinute, limits.monthly, limits.scanned, limits.returned);
  return { db, teamId: Number(team.lastInsertRowid) };
}

/** The answer of one request: its quota headers, or the 429's status, message and headers. */
function outcome(count: () => Record<string, string>): unknown {
  try {
    return count();
  } catch (e) {
    const error = e as { status: number; detail: string; headers: Record<string, string> };
    return { status: error.status, detail: error.detail, headers: error.headers };
  }
}

describe("countAnsweredRequest", () => {
  it("counts, heads and refuses as admitRequest then commitRequest do, request after request", () => {
    const limits = { perMinute: 7, monthly: 12, scanned: 10_000_000, returned: 50_000 };
    const twoSteps = stateWithTeam("two-steps", limits);
    const oneStep = stateWithTeam("one-step", limits);
    try {
      const start = Date.UTC(2024, 0, 31, 23, 58, 30);
      let refused = 0;
      for (let i = 0; i < 20; i++) {
        // Requests 30 s apart cross minutes and, at midnight, a month; bytes vary.
        const now = new Date(start + i * 30_000);
        const [scanned, returned] = [1000 + 37 * i, 2000 + 411 * i];
        const a = outcome(() => commitRequest(twoSteps.db, admitRequest(twoSteps.db, twoSteps.teamId, now), scanned, returned, now));
        const b = outcome(() => countAnsweredRequest(oneStep.db, oneStep.teamId, scanned, returned, now));
        expect(b).toEqual(a);
        if ((a as { status?: number }).status === 429) refused++;
        expect(readUsage(oneStep.db, oneStep.teamId, now)).toEqual(readUsage(twoSteps.db, twoSteps.teamId, now));
      }
      expect(refused).toBeGreaterThan(0);
      const rows = (db: typeof oneStep.db) => statement(db, "SELECT period, requests, data_scanned, data_returned, in_flight FROM usage ORDER BY period").all();
      expect(rows(oneStep.db)).toEqual(rows(twoSteps.db));
    } finally {
      twoSteps.db.close();
      oneStep.db.close();
    }
  });
});
