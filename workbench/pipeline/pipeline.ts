/**
 * One pipeline for every data call: plan (arguments to units, query/plan.ts, where the call's
 * shape is checked) -> prepare (each unit's typed conditions checked against the schema and
 * the access rules: `#units`, the one helper) -> guard (entered once: dates, tickers, then the
 * quota, up front or on the first answer: guard/guardStage.ts) -> fetch units (the pager over
 * the workbench's one send chain: rate window, quota gate, transport and its retry policy,
 * events: fetch/sendChain.ts; the cache) -> sink. A frame is one sink (frameSink.ts), lake
 * partitions another (store/download.ts). Progress, provenance and any other observer hear the
 * call's event stream; the pipeline knows none of them. A call cut short is resumed here and
 * only here, and its error is made with what it keeps (`partial`) and `resume()`. Every call
 * takes the session's interrupt and its own `signal` (runtime/interrupts.ts): when either
 * fires, its requests and waits are aborted and the call ends with an InterruptedError that
 * keeps what it fetched.
 */
import type pl from "nodejs-polars";
import { type CallState, WorkbenchError } from "../errors/base.ts";
import { InterruptedError } from "../errors/interrupted.ts";
import { type CallEvent, CallEvents, type CallInfo, type CallListener, type CallObserver } from "../events/callEvents.ts";
import { runUnits } from "../fetch/runUnits.ts";
import { inFlight } from "../fetch/inFlight.ts";
import type { SendChain, SendGate } from "../fetch/sendChain.ts";
import type { GuardStage } from "../guard/guardStage.ts";
import { QuotaGuardError } from "../guard/quotaGuard.ts";
import { callWire } from "../http/wireChoice.ts";
import { checkPathValues, checkQuery } from "../query/checkInput.ts";
import { type DataEndpoint, dataEndpoint } from "../query/endpoints.ts";
import type { CallPlan } from "../query/plan.ts";
import { type PreparedRequest, prepareRequest } from "../query/prepare.ts";
import type { Query } from "../query/query.ts";
import type { ServiceFacts } from "../service/facts.ts";
import { contiguousFrames, fetchedFrames, interruptedError, isFrame, type Units } from "./unitState.ts";
import { type CallAbort, callAbort } from "../runtime/interrupts.ts";

/** Where whole unit results may come from instead of the service (the on-disk cache). */
export interface UnitCache {
  /** The unit's frame from the cache, or `fetch`ed and kept; `onHit` hears a cache hit. */
  getOrFetch(request: PreparedRequest, fetch: () => Promise<pl.DataFrame>, onHit?: () => void): Promise<pl.DataFrame>;
}

/** Where a call's units go: a frame, or lake partitions. */
export interface UnitSink<T> {
  /** Hears the call start, once its requests are prepared (a lake tells what it already holds). */
  start?(emit: (event: CallEvent) => void): void;
  /**
   * Hears unit `index` about to be fetched, before any of its requests is sent; throwing stops
   * the call there, as a failed unit does (a lake checks its disk has room for the unit's files).
   */
  beforeUnit?(index: number): void;
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
  /** What the service says about itself (schemas, access rules, availability). */
  facts: ServiceFacts;
  /** The workbench's one send chain (rate window, quota gate, transport, events). */
  chain: SendChain;
  /** The guard stage (dates, tickers, quota). */
  guard: GuardStage;
  /** Where whole unit results may come from instead of the service (the on-disk cache). */
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
 * const pipeline = new Pipeline({ facts, chain: new SendChain(transport, window), guard: new GuardStage(facts, new QuotaJudge(facts, {})), observers: [] });
 * const frame = await pipeline.run(call, frameSink);
 * ```
 */
export class Pipeline {
  /** A pipeline over `parts`. */
  constructor(private readonly parts: PipelineParts) {}

  /**
   * A download's sample request (store/download.ts fingerprints its folder with it, before its
   * plan): the query's shape, the unit, and the guard's checks of it; sends no data request.
   */
  async prepare(dataset: string, pathValues: readonly (string | Date)[], query: Query = {}): Promise<PreparedRequest> {
    const endpoint = dataEndpoint(dataset);
    const [request] = await this.#units(endpoint, [pathValues], [checkQuery(query)]);
    await this.parts.guard.check(endpoint, [request]);
    return request;
  }

  /**
   * Every unit of a planned call, prepared and checked by the guard's free checks (dates,
   * tickers), without the quota: `wb.estimate`'s requests.
   */
  async prepareCall(plan: CallPlan): Promise<PreparedRequest[]> {
    const requests = await this.#planned(plan);
    await this.parts.guard.check(plan.endpoint, requests);
    return requests;
  }

  /** The requests of a plan's units (its shape was checked when it was planned). */
  #planned(plan: CallPlan): Promise<PreparedRequest[]> {
    return this.#units(plan.endpoint, plan.units, plan.units.map((_, i) => plan.unitQueries?.[i] ?? plan.base));
  }

  /**
   * The one helper that prepares units: checks each unit's path values and builds its request
   * against the rules and the schema; sends no data request (the rules and the schema are free
   * reads, each once per session).
   */
  #units(endpoint: DataEndpoint, units: readonly (readonly (string | Date)[])[], queries: readonly Query[]): Promise<PreparedRequest[]> {
    const facts = this.parts.facts;
    return Promise.all(units.map(async (unit, i) => {
      const values = checkPathValues(endpoint, unit);
      // Rules first: an unentitled dataset is refused here, before its schema is even asked for.
      const rules = await facts.rules();
      const entitled = rules.some((r) => r.dataset_text_id === endpoint.dataset);
      return prepareRequest(endpoint, values, queries[i], entitled ? await facts.schema(endpoint.dataset) : [], rules);
    }));
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
    const units: Units = {
      done: plan.units.map(() => false),
      kept: plan.units.map(() => undefined),
      partial: plan.units.map(() => undefined),
      doneRows: 0,
    };
    let fetching = false;
    try {
      const prepared = plan.units.length > 0 ? await this.#planned(plan) : [];
      const guarded = await this.parts.guard.enter({
        plan,
        requests: prepared,
        upfront: call.upfront,
        force: plan.force,
        onChecked: () => {
          requests = prepared;
          events.emit({ type: "prepared", requests });
          sink.start?.((event) => events.emit(event));
        },
        onExpected: (rows, bytes) => {
          run.expectedRows = rows;
          events.emit({ type: "expected", rows, bytes });
        },
      });
      run.expectedRows = guarded.expectedRows;
      // The checks above send no data request and take no signal: an interrupt during them stops the call here.
      if (run.abort.signal.aborted) throw interruptedError(call, run.abort, run.expectedRows, units);
      fetching = true;
      await this.#fetch(run, requests, plan.units.map((_, i) => i), guarded.gate, units, sink);
      fetching = false;
      return await this.#finish(requests, units, events, sink);
    } catch (error) {
      const whole = this.#resumable(call, sink, error, observed, fetching ? { units, requests } : undefined);
      events.emit({ type: "failed", requests, error: whole });
      await events.settled();
      throw whole;
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

  /**
   * A failed call's error, made again with what the call keeps and how to go on: the one place a
   * call is resumed. `fetched` is the units' state when the failure came while fetching.
   */
  #resumable<T>(
    call: PipelineCall,
    sink: UnitSink<T>,
    error: unknown,
    observed: readonly unknown[],
    fetched?: { units: Units; requests: PreparedRequest[] },
  ): unknown {
    if (!(error instanceof WorkbenchError)) return error;
    if (error instanceof QuotaGuardError) {
      // Going on after the guard stopped the call means running it anyway (a call of its own).
      return sink.partial
        ? error.keeping({ resume: () => this.run({ ...call, plan: { ...call.plan, force: true } }, sink) as Promise<pl.DataFrame> })
        : error;
    }
    if (!fetched || !sink.partial) return error;
    const { units, requests } = fetched;
    // An interrupted call keeps every row it fetched, in the order asked; another failure the
    // contiguous rows from the first (the units done, then the first unfinished one's rows).
    const state: CallState = {
      partial: sink.partial(error instanceof InterruptedError ? fetchedFrames(units) : contiguousFrames(units), requests),
      resume: async () => {
        // The rest, as a call of its own that names the failed one (its record says what it resumes).
        const events = new CallEvents([
          ...this.parts.observers.map((o) => o.observe({ ...call.info, resumes: observed })),
          ...(call.listeners ?? []),
        ]);
        const run: Run = { call, events, abort: callAbort(call.plan.base.signal) };
        const missing = units.done.flatMap((done, i) => (done ? [] : [i]));
        let refetching = true;
        try {
          events.emit({ type: "prepared", requests });
          await this.#fetch(run, requests, missing, undefined, units, sink);
          refetching = false;
          return (await this.#finish(requests, units, events, sink)) as pl.DataFrame;
        } catch (again) {
          const whole = this.#resumable(call, sink, again, observed, refetching ? { units, requests } : undefined);
          events.emit({ type: "failed", requests, error: whole });
          await events.settled();
          throw whole;
        } finally {
          run.abort.release();
        }
      },
    };
    return error.keeping(state);
  }

  /**
   * Fetches the units `todo` concurrently through the send chain (the per-minute window, the
   * quota `gate` of a call judged on its first answer, the transport), each from the cache
   * where it holds it; a unit cut short before resumes from its rows.
   */
  async #fetch<T>(
    run: Run,
    requests: PreparedRequest[],
    todo: number[],
    gate: SendGate | undefined,
    units: Units,
    sink: UnitSink<T>,
  ): Promise<void> {
    if (todo.length === 0) return;
    const { signal } = run.abort;
    const { chain, cache } = this.parts;
    const emit = (event: CallEvent) => run.events.emit(event);
    try {
      const given = requests[0]?.concurrencyGiven ? requests[0].concurrency : undefined;
      const running = inFlight(todo.length, given);
      // No format named: the session's choice for this service, said in the call's events (http/wireChoice.ts).
      const wire = requests[0]?.formatGiven === false
        ? callWire(chain.wireChoice, ({ format, reason }) => emit({ type: "wire-format", format, reason }))
        : undefined;
      await runUnits(todo.length, running.units, async (k) => {
        const i = todo[k];
        sink.beforeUnit?.(i);
        const pager = chain.pager({ ...requests[i], concurrency: running.pages }, { gate, signal, wire, events: { emit, unit: i } });
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
      throw signal.aborted && !(error instanceof InterruptedError) ? interruptedError(run.call, run.abort, run.expectedRows, units) : error;
    }
  }
}
