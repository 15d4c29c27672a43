/**
 * The frame sink: a data call's units stacked into one frame in the order asked, with
 * warnings that say why a part is empty, and absent tickers explained (a misspelling raises
 * "did you mean ...?"; a known ticker with no row is a warning).
 */
import type pl from "nodejs-polars";
import { addFrameWarnings } from "../frames/frameWarnings.ts";
import { emptyFrame, stackFrames } from "../frames/frames.ts";
import { explainAbsentTickers } from "../guard/tickers.ts";
import { cutWarnings } from "../guard/tickerSpans.ts";
import { judgeRefRoots } from "../guard/refRoots.ts";
import type { CallPlan } from "../query/plan.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import type { ServiceFacts } from "../service/facts.ts";
import { emptyPartWarnings, rangeText, unjudgedWarnings } from "./emptyParts.ts";
import type { UnitSink } from "./pipeline.ts";

/**
 * The sink of a data call that returns a frame.
 *
 * @example
 * ```ts
 * const frame = await pipeline.run(call, frameSink(facts, call.plan));
 * ```
 */
export function frameSink(facts: ServiceFacts, plan: CallPlan): UnitSink<pl.DataFrame> {
  const { endpoint, units, base, range } = plan;
  const dataset = endpoint.dataset;
  return {
    unit: (_index, frame) => frame,
    async result(kept, requests) {
      const frames = kept as pl.DataFrame[]; // this sink keeps every unit's frame
      if (units.length === 0) {
        const frame = emptyFrame(await facts.schema(dataset));
        return addFrameWarnings(frame, [`${dataset} has no trading day${rangeText(range)}: nothing was fetched`]);
      }
      const unjudged = await explainAbsent(facts, dataset, requests, frames);
      const cuts = await cutWarnings(facts, dataset, requests.map((r) => r.tickers), frames);
      cuts.push(...await judgeRefRoots(facts, endpoint, requests, frames)); // option roots of the reference datasets
      const frame = stackFrames(frames);
      return addFrameWarnings(frame, [
        ...cuts,
        ...emptyPartWarnings(endpoint, units, [...frames], base, range, frame, requests[0].maxRows),
        ...unjudgedWarnings(dataset, unjudged),
      ]);
    },
    partial: (kept, requests) => (kept.length ? stackFrames(kept) : emptyFrame(requests[0]?.columns ?? [])),
  };
}

/**
 * Raises for an asked ticker that is absent from its answer when the service does not know
 * it; returns the absent tickers nothing could judge, for a warning.
 */
async function explainAbsent(
  facts: ServiceFacts,
  dataset: string,
  requests: readonly PreparedRequest[],
  frames: readonly pl.DataFrame[],
): Promise<string[]> {
  const unjudged = new Set<string>();
  for (const [i, request] of requests.entries()) {
    if (request.tickers) {
      for (const t of await explainAbsentTickers(facts, dataset, request.tickers, frames[i], request.maxRows)) unjudged.add(t);
    }
  }
  return [...unjudged];
}
