/**
 * Where a call's units stand (done, kept, cut short) and what a failed call keeps of them: the
 * contiguous rows from the first for a failure, every row fetched for an interrupt, with the
 * InterruptedError that says how far the call got.
 */
import type pl from "nodejs-polars";
import { InterruptedError } from "../errors/interrupted.ts";
import type { CallInfo } from "../events/callEvents.ts";
import type { CallPlan } from "../query/plan.ts";
import type { CallAbort } from "../runtime/interrupts.ts";

/** The state of a call's units: which are done, what the sink kept of them, and rows of units cut short. */
export interface Units {
  /** Whether each unit is done. */
  done: boolean[];
  /** What the sink kept of each unit. */
  kept: (pl.DataFrame | undefined)[];
  /** The rows of units cut short, kept for the error's `partial`. */
  partial: (pl.DataFrame | undefined)[];
  /** Rows of the units done (a download keeps none of them in `kept`: they are on disk). */
  doneRows: number;
}

/** Whether a value is a Polars DataFrame (what a sink keeps, or a lake's nothing). */
export const isFrame = (value: unknown): value is pl.DataFrame =>
  typeof (value as { getColumn?: unknown } | null)?.getColumn === "function";

/**
 * Every row fetched, unit by unit in the order asked: a unit done, else the rows of one cut short.
 *
 * @example
 * ```ts
 * const partial = sink.partial(fetchedFrames(units), requests);
 * ```
 */
export function fetchedFrames(units: Units): pl.DataFrame[] {
  return units.kept.map((kept, i) => (units.done[i] ? kept : units.partial[i])).filter((f): f is pl.DataFrame =>
    isFrame(f) && f.height > 0
  );
}

/**
 * The rows from the call's first, without a gap: the units done in order, then the first unfinished one's rows.
 *
 * @example
 * ```ts
 * const partial = sink.partial(contiguousFrames(units), requests);
 * ```
 */
export function contiguousFrames(units: Units): pl.DataFrame[] {
  const firstMissing = units.done.indexOf(false);
  const prefix = units.kept.slice(0, firstMissing < 0 ? units.kept.length : firstMissing).filter(isFrame);
  const cut = firstMissing >= 0 ? units.partial[firstMissing] : undefined;
  return cut && cut.height > 0 ? [...prefix, cut] : prefix;
}

/**
 * The error of a call whose signal fired: how far it got, from its units' state.
 *
 * @example
 * ```ts
 * if (abort.signal.aborted) throw interruptedError(call, abort, expectedRows, units);
 * ```
 */
export function interruptedError(
  call: { plan: CallPlan; info: Omit<CallInfo, "resumes"> },
  abort: CallAbort,
  expectedRows: number | undefined,
  units: Units,
): InterruptedError {
  const { plan, info } = call;
  const cause = abort.cause() ?? { by: "interrupt" as const };
  const params = plan.endpoint.pathParams;
  const noun = info.kind === "download"
    ? "chunks"
    : params.includes("ticker")
    ? (params.includes("trade_date") ? "ticker-days" : "tickers")
    : params.includes("trade_date")
    ? "days"
    : "parts";
  const rows = info.kind === "download" ? units.doneRows : fetchedFrames(units).reduce((n, f) => n + f.height, 0);
  return new InterruptedError({
    by: cause.by,
    reason: cause.by === "signal" ? cause.reason : undefined,
    kind: info.kind,
    dataset: plan.endpoint.dataset,
    rows,
    expectedRows,
    parts: { done: units.done.filter(Boolean).length, total: plan.units.length, noun },
    dir: info.dir,
  });
}
