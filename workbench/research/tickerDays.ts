/**
 * Which ticker-days a study over tickers and a date range can measure, and a note for each
 * place where the range meets something that changes the story: an exchange holiday, dates
 * outside the service's data, a ticker renamed within the range (followed: the days under the
 * new name are fetched as the new name, one security throughout), a security that stops
 * trading (delisted or merged), a split (prices and share counts change on its ex date) and a
 * ticker the lookup file does not know. Read from the calendar, the dataset's status, the
 * equity lookup file and the adjusted option roots (`adjustedRoots`).
 */
import { holidayName, tradingDays } from "../../calendar/calendar.ts";
import { addDays } from "../../calendar/nyTime.ts";
import type { Workbench } from "../client.ts";
import { QueryError } from "../errors/base.ts";
import { tickerSpans } from "./securities.ts";
import { adjustedRoots } from "./splitFactors.ts";

/** One day of one asked ticker: the ticker in force that day (the asked one, or its new or old name). */
export interface TickerDay {
  /** The ticker as asked. */
  asked: string;
  /** The ticker it traded under that day (the asked one, or its new or old name). */
  ticker: string;
  /** The trading day, YYYY-MM-DD. */
  date: string;
}

/** The ticker-days to fetch, every trading day of the range, and the notes. */
export interface TickerDayPlan {
  /** Trading days of the range (calendar), inside the dataset's data. */
  days: string[];
  /** Every asked ticker's trading days with data, in the order asked, then by date. */
  units: TickerDay[];
  /** One sentence per event, in the order tickers were asked. */
  notes: string[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A split factor as a ratio: 1.5 is `3-for-2`, 0.25 `1-for-4`. */
export function splitRatio(factor: number): string {
  for (let old = 1; old <= 100; old++) {
    const shares = factor * old;
    if (Math.abs(shares - Math.round(shares)) < 1e-9) return `${Math.round(shares)}-for-${old}`;
  }
  return `${factor}-for-1`;
}

/**
 * The plan for `tickers` from `start` to `end` (inclusive, YYYY-MM-DD) in `dataset` (default
 * `eq-taq`).
 *
 * @example
 * ```ts
 * const plan = await tickerDays(wb, ["SQ"], "2023-12-20", "2024-01-10");
 * plan.notes; // ["SQ was renamed XYZ from 2024-01-04 ...", "2023-12-25 is Christmas Day ...", ...]
 * ```
 */
export async function tickerDays(wb: Workbench, tickers: string[], start: string, end: string, dataset = "eq-taq"): Promise<TickerDayPlan> {
  if (!(start <= end)) throw new QueryError(`start (${start}) must not be after end (${end})`);
  const notes: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) {
    const holiday = holidayName(d);
    if (holiday) notes.push(`${d} is ${holiday}, an exchange holiday: no trading, so no data that day.`);
  }
  const calendarDays = tradingDays(start, end).map((d) => d.date);
  const status = await wb.meta.availability(dataset);
  const [first, last] = [status.first_available_date ?? "9999-12-31", status.last_available_date ?? "0000-01-01"];
  const days = calendarDays.filter((d) => first <= d && d <= last);
  if (calendarDays.length === 0) notes.push(`No trading day from ${start} to ${end}: nothing to measure.`);
  else if (days.length < calendarDays.length) {
    const outside = calendarDays.length - days.length;
    notes.push(
      `${dataset} holds data from ${first} to ${last}: ${plural(outside, "trading day")} of the range ${
        outside === calendarDays.length ? "(all of them) are" : outside === 1 ? "is" : "are"
      } outside it${days.length > 0 ? `, so the study covers ${days[0]} to ${days.at(-1)}` : ": nothing to measure"}.`,
    );
  }
  const spans = tickerSpans(await wb.data.eqLookupFiles());
  const roots = spans.length > 0 && days.length > 0 ? await adjustedRoots(wb) : [];
  const units: TickerDay[] = [];
  for (const asked of tickers) {
    const own = spans.filter((s) => s.ticker === asked);
    if (own.length === 0) {
      notes.push(`${asked} is not in the equity lookup file (eq-lookup-files): no data to measure for it.`);
      continue;
    }
    const secId = own.at(-1)!.secId;
    const security = spans.filter((s) => s.secId === secId);
    const inForce = (d: string) => security.find((s) => (s.from ?? "") <= d && d <= s.to);
    const mine = days.map((date) => ({ asked, date, ticker: inForce(date)?.ticker }));
    const covered = mine.filter((u): u is TickerDay => u.ticker !== undefined);
    units.push(...covered);
    const underAsked = covered.filter((u) => u.ticker === asked).length;
    for (const [k, span] of security.entries()) {
      if (k === 0 || !span.from || !days.some((d) => d >= span.from!) || !days.some((d) => d < span.from!)) continue;
      const [before, after] = [security[k - 1].ticker, span.ticker];
      const how = asked === before
        ? `${asked} was renamed ${after} from ${span.from} (one security, SecId ${secId}): its days from then are fetched as ${after}`
        : `${asked} was ${before} until ${
          security[k - 1].to
        } (one security, SecId ${secId}): its days before ${span.from} are fetched as ${before}`;
      notes.push(
        `${how}, so ${asked}'s figures cover ${plural(covered.length, "trading day")} of ${days.length}, not the ${
          plural(underAsked, "day")
        } under ${asked} alone.`,
      );
    }
    const lastDay = security.at(-1)!.to;
    if (covered.length < mine.length && days.some((d) => d > lastDay)) {
      const merger = roots.find((r) => r.secId === secId && r.kind === "merger");
      notes.push(
        `${asked} stops trading after ${lastDay}, its last day in the equity lookup file${
          merger
            ? ` (a merger: OCC's adjusted option root ${merger.optionTicker} delivers ${merger.deliverable} per contract of 100 old shares)`
            : " (delisted)"
        }: ${plural(covered.length, "trading day")} of ${days.length} can be measured.`,
      );
    }
    for (const r of roots.filter((r) => r.secId === secId && r.kind === "split" && r.exDate >= start && r.exDate <= end)) {
      notes.push(
        `${r.ticker ?? asked} split ${
          splitRatio(r.factor ?? 1)
        } (its adjusted option root ${r.optionTicker} delivers ${r.deliverable}) with ex date ${r.exDate}: prices and share counts change that day. Spreads in basis points and the dollar-size buckets are unaffected; a size in shares would not be.`,
      );
    }
  }
  return { days, units, notes };
}
