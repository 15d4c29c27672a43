/**
 * Split factors derived from the service's own reference data. A split whose ratio is not a
 * whole number leaves an adjusted ("non-standard") option root behind: OCC's special
 * settlements (`occ-eq-spec-settl`) list what one contract of that root delivers, and the
 * options security master (`opt-sec-master`) says which security the root was on and from
 * which day it trades. A root that delivers only shares of its own security is a split
 * (150 shares: 3-for-2, factor 1.5; 25 shares: 1-for-4 reverse, factor 0.25); one that
 * delivers another company's shares and/or cash is a merger or a distribution, not a split.
 *
 * Limits, from the data itself: a whole-number split (2-for-1) creates no adjusted root, so it
 * is not found here; an adjusted root with no standard root of the same name is reported as
 * `unknown` rather than guessed.
 */
import pl from "nodejs-polars";
import type { Workbench } from "../client.ts";
import { isoDate, tickerSpans } from "./securities.ts";

/** The standard contract's deliverable: 100 shares. */
const STANDARD_UNITS = 100;

/** What an adjusted option root reflects: a split, a merger, a distribution, or not known. */
export type RootKind = "split" | "merger" | "distribution" | "unknown";

/** One adjusted root, classified. */
export interface AdjustedRoot {
  /** The adjusted root's ticker, e.g. `ODFL1`. */
  optionTicker: string;
  /** Security the root's original (standard) root was on. */
  secId?: number;
  /** Ticker of that security on the ex date. */
  ticker?: string;
  /** First trading day of the adjusted root: the ex or effective date. */
  exDate: string;
  /** The day OCC processed the adjustment (YYYY-MM-DD). */
  processDate: string;
  /** What the adjustment reflects. */
  kind: RootKind;
  /** New shares per old share for a split (1.5 for 3-for-2, 0.25 for 1-for-4); else undefined. */
  factor?: number;
  /** The deliverable as read, e.g. `150 ODFL` or `102 CVX + 521.76 USD`. */
  deliverable: string;
  /** Why the root was classified so. */
  reason: string;
}

/** Removes a root's adjustment suffix: `ODFL1` is an adjusted `ODFL`. */
const standardRootOf = (optionTicker: string) => optionTicker.replace(/\d+$/, "");

/** First day of the first `YYYYMMDD:YYYYMMDD` range. */
const firstTradeDate = (ranges: string[] | null): string | undefined => {
  const first = ranges?.map((r) => r.split(":")[0]).sort()[0];
  return first ? `${first.slice(0, 4)}-${first.slice(4, 6)}-${first.slice(6, 8)}` : undefined;
};

interface SettlementRow {
  ProcessDate: Date;
  OptionTicker: string;
  UnderTicker: string;
  UnderType: string;
  DeliverableUnits: number | bigint;
  CashAmount: number;
}

/**
 * Every adjusted root in the special settlements, classified as a split (with its factor), a
 * merger, a distribution or unknown, with the reason. Reads three reference datasets.
 *
 * @example
 * ```ts
 * const roots = await adjustedRoots(wb);
 * roots.map((r) => `${r.optionTicker}: ${r.kind} ${r.factor ?? ""} (${r.reason})`);
 * ```
 */
export async function adjustedRoots(wb: Workbench): Promise<AdjustedRoot[]> {
  const [settl, master, lookup] = await Promise.all([
    wb.data.occEqSpecSettl({ sort: ["ProcessDate", "OptionTicker", "DeliveryComponents"] }),
    wb.data.optSecMaster(),
    wb.data.eqLookupFiles(),
  ]);
  return classifyRoots(settl, master, lookup);
}

/**
 * The classification of `adjustedRoots`, on frames already fetched: the special settlements
 * (in component order), the security master and the lookup file.
 *
 * @example
 * ```ts
 * classifyRoots(await wb.data.occEqSpecSettl(), await wb.data.optSecMaster(), await wb.data.eqLookupFiles());
 * ```
 */
export function classifyRoots(settl: pl.DataFrame, master: pl.DataFrame, lookup: pl.DataFrame): AdjustedRoot[] {
  const spans = tickerSpans(lookup);
  const secIdOn = (ticker: string, date: string) => spans.find((s) => s.ticker === ticker && (s.from ?? "") <= date && date <= s.to)?.secId;
  // On a merger's effective date the target no longer trades: it is named by its last ticker.
  const tickerOn = (secId: number, date: string) => spans.filter((s) => s.secId === secId && (s.from ?? "") <= date).at(-1)?.ticker;
  const roots = new Map(
    (master.select("OptionTicker", "UnderSecId", "OptionTradeDates").toRecords() as unknown as {
      OptionTicker: string;
      UnderSecId: number | bigint;
      OptionTradeDates: string[] | null;
    }[]).map((r) => [r.OptionTicker, r]),
  );
  const byRoot = new Map<string, SettlementRow[]>();
  for (const row of settl.toRecords() as unknown as SettlementRow[]) {
    byRoot.set(row.OptionTicker, [...(byRoot.get(row.OptionTicker) ?? []), row]);
  }

  const out: AdjustedRoot[] = [];
  for (const [optionTicker, components] of byRoot) {
    const processDate = isoDate(components[0].ProcessDate);
    const exDate = firstTradeDate(roots.get(optionTicker)?.OptionTradeDates ?? null) ?? processDate;
    const standard = roots.get(standardRootOf(optionTicker));
    const secId = standard ? Number(standard.UnderSecId) : undefined;
    const deliverable = components.map((
      c,
    ) => (c.UnderType === "cash" ? `${c.CashAmount} ${c.UnderTicker}` : `${Number(c.DeliverableUnits)} ${c.UnderTicker}`)).join(" + ");
    const base = {
      optionTicker,
      secId,
      ticker: secId === undefined ? undefined : tickerOn(secId, exDate),
      exDate,
      processDate,
      deliverable,
    };
    if (secId === undefined) {
      out.push({
        ...base,
        kind: "unknown",
        reason: `no standard root ${standardRootOf(optionTicker)} in the security master to say which security it adjusts`,
      });
      continue;
    }
    const own = components.filter((c) => c.UnderType !== "cash" && secIdOn(c.UnderTicker, exDate) === secId);
    const other = components.filter((c) => c.UnderType !== "cash" && secIdOn(c.UnderTicker, exDate) !== secId);
    const cash = components.filter((c) => c.UnderType === "cash" || c.CashAmount > 0);
    if (other.length > 0) {
      out.push({
        ...base,
        kind: "merger",
        reason: `delivers shares of another security (${other.map((c) => c.UnderTicker).join(", ")})${cash.length ? " and cash" : ""}`,
      });
    } else if (own.length === 0 && cash.length > 0) {
      out.push({ ...base, kind: "merger", reason: "delivers cash only: a cash merger, not a split" });
    } else if (own.length === 1 && cash.length === 0) {
      const units = Number(own[0].DeliverableUnits);
      const factor = units / STANDARD_UNITS;
      const reason = `delivers ${units} shares of its own security instead of ${STANDARD_UNITS}`;
      if (factor === 1) out.push({ ...base, kind: "unknown", reason: `${reason}: no change in share count` });
      else out.push({ ...base, kind: "split", factor, reason });
    } else if (own.length === 1) {
      out.push({ ...base, kind: "distribution", reason: `delivers its own shares plus cash: a cash distribution, not a split` });
    } else {
      out.push({
        ...base,
        kind: "unknown",
        reason: `deliverable with ${components.length} components that are neither one stock nor another company's package`,
      });
    }
  }
  return out;
}

/**
 * The split factors the service's data implies, one row per split: `SecId`, `Ticker` (on the
 * ex date), `ExDate` (first day at the new share count), `Factor` (new shares per old share)
 * and `OptionTicker` (the adjusted root it was read from). Feed it to `adjustPrices`.
 *
 * @example
 * ```ts
 * const factors = await splitFactors(wb);
 * // ODFL 1.5 from its ex date (3-for-2), SIRI 0.25 (1-for-4 reverse); HES into CVX is a merger: absent
 * const adjusted = adjustPrices(await wb.data.eqDailyOhlc({ filters: { Ticker: "ODFL" } }), factors);
 * ```
 */
export async function splitFactors(wb: Workbench): Promise<pl.DataFrame> {
  const splits = (await adjustedRoots(wb)).filter((r) => r.kind === "split");
  return pl.DataFrame([
    pl.Series("SecId", splits.map((s) => s.secId!), pl.Int64),
    pl.Series("Ticker", splits.map((s) => s.ticker ?? null), pl.String),
    pl.Series("ExDate", splits.map((s) => new Date(`${s.exDate}T00:00:00Z`)), pl.Date),
    pl.Series("Factor", splits.map((s) => s.factor!), pl.Float64),
    pl.Series("OptionTicker", splits.map((s) => s.optionTicker), pl.String),
  ]);
}
