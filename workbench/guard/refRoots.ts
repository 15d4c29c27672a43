/**
 * Option roots of the options reference datasets (`opt-sec-master`, `occ-eq-spec-settl`, an
 * OptionTicker filter) checked as the other option datasets check theirs: a root the security
 * master does not know is refused with the nearest ones, or the root an underlying's options
 * trade under ("did you mean 'AAPL'?", "SPX is the underlying of SPXW"), where such a call
 * returned an empty frame without a word. A root that exists but is not adjusted has no
 * deliverable in `occ-eq-spec-settl`: its empty part is said, with the adjusted roots it became.
 */
import type pl from "nodejs-polars";
import type { DataEndpoint } from "../query/endpoints.ts";
import { type PreparedRequest, sentConditions } from "../query/prepare.ts";
import type { TickerSource } from "../service/facts.ts";
import { checkRootsInBook, loadedRootBook, type RootBook, rootBook } from "./optionRoots.ts";

/** Reference datasets whose symbol is an option root in the OptionTicker column. */
const REF_ROOT_DATASETS: readonly string[] = ["opt-sec-master", "occ-eq-spec-settl"];

/** The roots a request asks for (its OptionTicker `eq`/`in` filter), in order, once each. */
function askedRoots(endpoint: DataEndpoint, request: PreparedRequest): string[] {
  const column = endpoint.symbol.column;
  return [
    ...new Set(
      sentConditions(endpoint, request).filter((c) => c.column === column && (c.op === "eq" || c.op === "in")).flatMap((c) => c.texts),
    ),
  ];
}

/** The adjusted roots of `root` (its name and a digit suffix: ODFL1 of ODFL). */
const adjustedRoots = (book: RootBook, root: string) =>
  book.roots.filter((r) => r.length > root.length && r.startsWith(root) && /^\d+$/.test(r.slice(root.length)));

/**
 * Before sending, once this session has loaded the security master (no request of its own):
 * refuses roots it does not know.
 *
 * @example
 * ```ts
 * checkRefRootsBeforeSending(facts, dataEndpoint("opt-sec-master"), request);
 * // UnknownTickerError: opt-sec-master: unknown option root APPL (did you mean 'AAPL'?); known option roots are ...
 * ```
 */
export function checkRefRootsBeforeSending(source: TickerSource, endpoint: DataEndpoint, request: PreparedRequest): void {
  if (!REF_ROOT_DATASETS.includes(endpoint.dataset)) return;
  const book = loadedRootBook(source);
  const asked = askedRoots(endpoint, request);
  if (book && asked.length) checkRootsInBook(book, endpoint.dataset, asked, undefined);
}

/**
 * From the answers: refuses an asked root absent from them that the security master does not
 * know (loaded once per session), and returns a warning for a known root `occ-eq-spec-settl`
 * has no row of (not adjusted) or one nothing could judge (the master not readable).
 *
 * @example
 * ```ts
 * const warnings = await judgeRefRoots(facts, dataEndpoint("occ-eq-spec-settl"), requests, frames);
 * // ["occ-eq-spec-settl lists adjusted option roots only: ODFL is not one (no row); its contracts adjusted into ODFL1"]
 * ```
 */
export async function judgeRefRoots(
  source: TickerSource,
  endpoint: DataEndpoint,
  requests: readonly PreparedRequest[],
  frames: readonly pl.DataFrame[],
): Promise<string[]> {
  const dataset = endpoint.dataset;
  if (!REF_ROOT_DATASETS.includes(dataset)) return [];
  const column = endpoint.symbol.column;
  const absent = new Set<string>();
  for (const [i, request] of requests.entries()) {
    const frame = frames[i];
    if (!frame || frame.height >= request.maxRows) continue; // cut by maxRows: absence tells nothing
    const present = new Set(
      frame.columns.includes(column)
        ? (frame.getColumn(column).unique().toArray() as string[])
        : frame.height > 0
        ? askedRoots(endpoint, request)
        : [],
    );
    for (const root of askedRoots(endpoint, request)) if (!present.has(root)) absent.add(root);
  }
  if (absent.size === 0) return [];
  const book = await rootBook(source);
  if (!book) {
    return [
      `${[...absent].join(", ")} ${
        absent.size > 1 ? "are" : "is"
      } absent from the result of ${dataset}: this account cannot read opt-sec-master, which would say whether ${
        absent.size > 1 ? "they are option roots" : "it is an option root"
      }`,
    ];
  }
  checkRootsInBook(book, dataset, [...absent], undefined);
  if (dataset !== "occ-eq-spec-settl") return []; // a known root the other filters left out
  return [...absent].map((root) => {
    const adjusted = adjustedRoots(book, root);
    return `occ-eq-spec-settl lists adjusted option roots only: ${root} is not one (no row)${
      adjusted.length ? `; its contracts were adjusted into ${adjusted.join(", ")}: ask for ${adjusted.join(" or ")}` : ""
    }`;
  });
}
