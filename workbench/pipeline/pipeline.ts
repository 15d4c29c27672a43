/**
 * One pipeline for every data call: plan (arguments to units, query/plan.ts) -> prepare (typed
 * conditions checked against the schema, the rules and the service's facts) -> guard (quota,
 * tickers) -> fetch units (pager, retries, the rate window, the cache) -> sink. A frame is one
 * sink (frameSink.ts), lake partitions another (store/lakeSink.ts). Progress, provenance and any
 * other observer hear the call's event stream; the pipeline knows none of them. A call cut short
 * is resumed here and only here. Every call takes the session's interrupt and its own `signal`
 * (runtime/interrupts.ts): when either fires, its requests and waits are aborted and the call
 * ends with an InterruptedError that keeps what it fetched.
 */
import type pl from "nodejs-polars";
import { WorkbenchError } from "../errors/base.ts";
import { InterruptedError } from "../errors/interrupted.ts";
import { type CallEvent, CallEvents, type CallInfo, type CallListener, type CallObserver } from "../events/callEvents.ts";
import { Pager, type Send } from "../fetch/pager.ts";
import { runUnits } from "../fetch/runUnits.ts";
import { inFlight } from "../fetch/inFlight.ts";
import { checkWithService } from "../guard/serviceChecks.ts";
import { CallGuard, QuotaGuardError, type QuotaGuardOptions } from "../guard/quotaGuard.ts";
import type { QuotaJudge } from "../guard/quotaJudge.ts";
import { checkTickersUpfront } from "../guard/tickers.ts";
import type { RateWindow } from "../http/rateWindow.ts";
import type { Transport } from "../http/transport.ts";
import { checkPathValues, checkQuery } from "../query/checkInput.ts";
import { dataEndpoint } from "../query/endpoints.ts";
import type { CallPlan } from "../query/plan.ts";
import { prepareRequest, type PreparedRequest } from "../query/prepare.ts";
import type { Query } from "../query/query.ts";
import type { ServiceFacts } from "../service/facts.ts";
import { contiguousFrames, fetchedFrames, interruptedError, isFrame, type Units } from "./unitState.ts";
import { callAbort, type CallAbort, untilAborted } from "../runtime/interrupts.ts";

/** Where whole unit results may come from instead of the service (the on-disk cache). */
export interface UnitCache {
  /** The unit's frame from the cache, else `fetch`ed and kept; `onHit` hears a cache hit. */
  getOrFetch(request: PreparedRequest, fetch: () => Promise<pl.DataFrame>, onHit?: () => void): Promise<pl.DataFrame>;
}

/** Where a call's units go: a frame, or lake partitions. */
export interface UnitSink<T> {
  /** Hears the call start, once its requests are prepared (a lake tells what it already holds). */
  start?(emit: (event: CallEvent) => void): void;
  /**
   * Takes unit `index`'s frame as it completes (a lake writes its partitions here). Returns what
   * the call keeps of it for `result` and `partial`: the frame sink keeps the frame; a lake keeps
   * nothing, since its rows are on disk (a download holds one unit's rows at a time, not all).
   */
  unit(index: number, frame: pl.DataFrame, emit: (event: CallEvent) => void): pl.DataFrame | undefined | Promise<pl.DataFrame | undefined>;
  /** The call's result once every unit is in (`frames` in unit order: what `unit` kept). */
  result(frames: readonly (pl.DataFrame | undefined)[], requests: readonly PreparedRequest[]): Promise<T>;
  /** What a failed call keeps, from the units done (in order) and the rows of the first unfinished one. */
  partial?(kept: readonly pl.DataFrame[], requests: readonly PreparedRequest[]): pl.DataFrame;
}

/** What the pipeline works with: one per workbench. */
export interface PipelineParts {
  /** Sends the requests. */
  transport: Transport;
  /** What the service says about itself (status, tickers, quotas). */
  facts: ServiceFacts;
  /** The per-minute request window. */
  window: RateWindow;
  /** Judges calls against the quotas up front. */
  judge: QuotaJudge;
  /** The quota guard's options; false: off. */
  quotaGuard: QuotaGuardOptions | false;
  /** The on-disk cache of unit results, when one is on. */
  cache?: UnitCache;
  /** Observers of every call (the provenance recorder). */
  observers: readonly CallObserver[];
}

/** One call through the pipeline: its plan, what its observers are told, and its own listeners. */
export interface PipelineCall {
  /** The call's plan. */
  plan: CallPlan;
  /** What the call's observers are told about it. */
  info: Omit<CallInfo, "resumes">;
  /** Listeners of this call only (its progress). */
  listeners?: readonly CallListener[];
  /** Judge every request (quota, tickers) before sending any: a universe or a download. */
  upfront: boolean;
}

/** One run of a call (the call, or its resume): its events, its abort signal, its expected rows. */
interface Run {
  call: PipelineCall;
  events: CallEvents;
  abort: CallAbort;
  /** Rows the call is expected to fetch in all, once estimated (up front, or from the first answer). */
  expectedRows?: number;
}

/**
 * Runs data calls.
 *
 * @example
 * ```ts
 * const pipeline = new Pipeline({ transport, facts, window, judge, quotaGuard: {}, observers: [] });
 * const frame = await pipeline.run(call, frameSink);
 * ```
 */
export class Pipeline {
  /** A pipeline over `parts`. */
  constructor(private readonly parts: PipelineParts) {}

  /**
   * Checks one unit and builds its request; sends no data request (the rules, the schema and
   * the availability are free reads, each once per session).
   */
  async prepare(dataset: string, pathValues: readonly (string | Date)[], query: Query = {}, shapeChecked = false): Promise<PreparedRequest> {
    const endpoint = dataEndpoint(dataset);
    // The call's shape first: a mistake is named before any request, even a free one (a planned
    // call's was checked once, when it was planned).
    if (!shapeChecked) query = checkQuery(query);
    const values = checkPathValues(endpoint, pathValues);
    // Rules first: an unentitled dataset is refused here, before its schema is even asked for.
    const facts = this.parts.facts;
    const rules = await facts.rules();
    if (!rules.some((r) => r.dataset_text_id === dataset)) return prepareRequest(endpoint, values, query, [], rules);
    const schema = await facts.schema(dataset);
    const request = prepareRequest(endpoint, values, query, schema, rules);
    request.tickers = await checkWithService({ endpoint, request, schema, status: () => facts.availability(dataset), tickers: facts });
    return request;
  }

  /** Tells the observers of a call that failed before it could run (a download whose folder holds another query). */
  async refused(info: Omit<CallInfo, "resumes">, error: unknown): Promise<void> {
    const events = new CallEvents(this.parts.observers.map((o) => o.observe(info)));
    events.emit({ type: "failed", requests: [], error });
    await events.settled();
  }

  /** Runs a call into `sink` and returns the sink's result; a failure carries `partial` and `resume()` where the sink keeps rows. */
  run<T>(call: PipelineCall, sink: UnitSink<T>): Promise<T> {
    return this.#run(call, sink, undefined);
  }

  async #run<T>(call: PipelineCall, sink: UnitSink<T>, resumes: unknown): Promise<T> {
    const { plan } = call;
    const info: CallInfo = { ...call.info, resumes };
    const observed = this.parts.observers.map((o) => o.observe(info));
    const events = new CallEvents([...observed, ...(call.listeners ?? [])]);
    const run: Run = { call, events, abort: callAbort(plan.base.signal) };
    let requests: PreparedRequest[] = [];
    const units: Units = { done: plan.units.map(() => false), kept: plan.units.map(() => undefined), partial: plan.units.map(() => undefined), doneRows: 0 };
    try {
      if (plan.units.length > 0) {
        requests = await Promise.all(plan.units.map((u, i) => this.prepare(plan.endpoint.dataset, u, plan.unitQueries?.[i] ?? plan.base, !plan.unitQueries)));
      }
      events.emit({ type: "prepared", requests });
      sink.start?.((event) => events.emit(event));
      let force = plan.force;
      if (call.upfront && plan.units.length > 0) {
        // Every request is known: judged before any is sent, so none waits behind the first answer.
        if (!force) run.expectedRows = (await this.parts.judge.upfront(plan.endpoint, requests, plan.units))?.rows;
        force = true;
        // A misspelt ticker would cost an empty page each: judged before sending (the lookup files cost one request per session).
        await checkTickersUpfront(this.parts.facts, plan.endpoint.dataset, requests.map((r) => r.tickers));
      }
      // The checks above send no data request and take no signal: an interrupt during them stops the call here.
      if (run.abort.signal.aborted) throw interruptedError(call, run.abort, run.expectedRows, units);
      await this.#fetch(run, requests, plan.units.map((_, i) => i), force, units, sink);
      return await this.#finish(requests, units, events, sink);
    } catch (error) {
      this.#resumable(call, sink, error, observed);
      events.emit({ type: "failed", requests, error });
      await events.settled();
      throw error;
    } finally {
      run.abort.release();
    }
  }

  /** The sink's result, told to the observers. */
  async #finish<T>(requests: readonly PreparedRequest[], units: Units, events: CallEvents, sink: UnitSink<T>): Promise<T> {
    const result = await sink.result(units.kept, requests);
    events.emit({ type: "ended", requests, frame: isFrame(result) ? result : undefined });
    await events.settled();
    return result;
  }

  /** Gives a failed call what it keeps and how to go on: the one place a call is resumed. */
  #resumable<T>(call: PipelineCall, sink: UnitSink<T>, error: unknown, observed: readonly unknown[]): void {
    if (!(error instanceof WorkbenchError)) return;
    if (error instanceof QuotaGuardError) {
      // Going on after the guard stopped the call means running it anyway (a call of its own).
      if (sink.partial) error.resume = () => this.run({ ...call, plan: { ...call.plan, force: true } }, sink) as Promise<pl.DataFrame>;
      return;
    }
    const state = (error as { [UNITS]?: { units: Units; requests: PreparedRequest[] } })[UNITS];
    if (!state || !sink.partial) return;
    const { units, requests } = state;
    // An interrupted call keeps every row it fetched, in the order asked; another failure the
    // contiguous rows from the first (the units done, then the first unfinished one's rows).
    error.partial = sink.partial(error instanceof InterruptedError ? fetchedFrames(units) : contiguousFrames(units), requests);
    error.resume = async () => {
      // The rest, as a call of its own that names the failed one (its record says what it resumes).
      const events = new CallEvents([...this.parts.observers.map((o) => o.observe({ ...call.info, resumes: observed })), ...(call.listeners ?? [])]);
      const run: Run = { call, events, abort: callAbort(call.plan.base.signal) };
      const missing = units.done.flatMap((done, i) => (done ? [] : [i]));
      try {
        events.emit({ type: "prepared", requests });
        await this.#fetch(run, requests, missing, true, units, sink);
        return (await this.#finish(requests, units, events, sink)) as pl.DataFrame;
      } catch (again) {
        this.#resumable(call, sink, again, observed);
        events.emit({ type: "failed", requests, error: again });
        await events.settled();
        throw again;
      } finally {
        run.abort.release();
      }
    };
  }

  /**
   * Fetches the units `todo` concurrently within the per-minute window, behind the quota guard
   * (judged on the first answer unless `force`), each from the cache where it holds it; a unit
   * cut short before resumes from its rows.
   */
  async #fetch<T>(run: Run, requests: PreparedRequest[], todo: number[], force: boolean, units: Units, sink: UnitSink<T>): Promise<void> {
    if (todo.length === 0) return;
    const { plan } = run.call;
    const { signal } = run.abort;
    const { transport, window, judge, quotaGuard, cache } = this.parts;
    const emit = (event: CallEvent) => run.events.emit(event);
    const guard = force || quotaGuard === false
      ? undefined
      : new CallGuard((first) => judge.firstAnswer(plan.endpoint, requests, plan.units, first, (rows, bytes) => {
        run.expectedRows = rows;
        emit({ type: "expected", rows, bytes });
      }));
    const maxWait = transport.options.maxWaitSeconds ?? 120;
    const retries = transport.options.retries ?? 8;
    try {
      const given = requests[0]?.concurrencyGiven ? requests[0].concurrency : undefined;
      const running = inFlight(todo.length, given);
      await runUnits(todo.length, running.units, async (k) => {
        const i = todo[k];
        const send: Send = async (path, params, onHeaders) => {
          if (guard) await untilAborted(guard.beforeSend(), signal);
          await window.acquire((seconds) => emit({ type: "waiting", seconds, reason: "per-minute quota" }), maxWait, signal);
          try {
            const r = await transport.get(path, params, (headers) => {
              window.observe(headers);
              guard?.onHeaders(headers);
              onHeaders?.(headers);
            }, signal);
            emit({ type: "answer", unit: i, requestId: r.headers.get("X-Request-ID"), bytes: r.body.byteLength });
            return r;
          } finally {
            guard?.settled();
          }
        };
        const pager = new Pager(send, { ...requests[i], concurrency: running.pages }, { retries, waits: transport.options.waits, signal, onPage: (offset, frame, bytes) => emit({ type: "page", unit: i, offset, frame, bytes }) });
        const cut = units.partial[i];
        const fetch = () => (cut ? pager.fetchAll(cut.height, cut.height ? [cut] : []) : pager.fetchAll());
        let fromCache = false;
        let frame: pl.DataFrame;
        try {
          frame = await (cache ? cache.getOrFetch(requests[i], fetch, () => (fromCache = true)) : fetch());
        } catch (error) {
          if (error instanceof WorkbenchError && error.partial) units.partial[i] = error.partial;
          throw error;
        }
        units.partial[i] = undefined;
        emit({ type: "unit-done", unit: i, frame, fromCache });
        units.kept[i] = await sink.unit(i, frame, emit);
        units.done[i] = true;
        units.doneRows += frame.height;
      });
    } catch (error) {
      const stopped = signal.aborted && !(error instanceof InterruptedError) ? interruptedError(run.call, run.abort, run.expectedRows, units) : error;
      if (stopped instanceof WorkbenchError) Object.defineProperty(stopped, UNITS, { value: { units, requests }, configurable: true });
      throw stopped;
    }
  }
}

/** Where a failed fetch leaves its units' state for the resume (not enumerable: never in a message or a record). */
const UNITS = Symbol("pipeline.units");
