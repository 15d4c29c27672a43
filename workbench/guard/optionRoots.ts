/**
 * Option roots checked as tickers are: the options security master (`opt-sec-master`, one
 * request once per session, where the identity may read it) says which roots exist, when each
 * traded, what it was renamed to or adjusted into, and which underlying each belongs to. A root
 * it does not know is refused with the nearest ones ("did you mean AAPL?") or, for an
 * underlying, the root its options trade under (SPX: SPXW); a root asked for wholly after it
 * stopped says what it became (renamed, delisted, adjusted); greeks of a root the master says
 * they do not cover are refused.
 */
import pl from "nodejs-polars";
import { addDays } from "../../calendar/nyTime.ts";
import { QueryError } from "../errors/base.ts";
import { didYouMean, nearestNames } from "../errors/nearest.ts";
import { UnknownTickerError } from "../errors/unknown.ts";
import { ROOT_COLUMNS, type TickerSource } from "../service/facts.ts";

/** Datasets whose ticker column holds option roots. */
export const OPTION_ROOT_DATASETS: readonly string[] = ["opt-greeks-daily", "opt-open-interest"];

/** One option root: when it traded, and what it belongs to. */
interface Root {
  root: string;
  under: string;
  underSecId: string;
  /** First and last day it traded (YYYY-MM-DD); the last is undefined while it trades. */
  first: string;
  last?: string;
  delisted: boolean;
  greeks: boolean;
}

/** Whether `name` is an adjusted root of `root` (its name and a digit suffix: ODFL1 of ODFL). */
const adjustedOf = (root: string, name: string) =>
  name.length > root.length && name.startsWith(root) && /^\d+$/.test(name.slice(root.length));

/** "20231219" as "2023-12-19". */
const day = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;

/** What the options security master says about option roots. */
export class RootBook {
  private readonly byRoot = new Map<string, Root>();

  /** The option roots, as the lookup files list them. */
  constructor(roots: readonly Root[]) {
    for (const r of roots) this.byRoot.set(r.root, r);
  }

  /**
   * The book of an `opt-sec-master` frame (OptionTicker, UnderTicker, UnderSecId,
   * OptionTradeDates, OptionListStatus, GreeksCoverage).
   *
   * @example
   * ```ts
   * const book = RootBook.fromFrame(await wb.data.optSecMaster());
   * ```
   */
  static fromFrame(frame: pl.DataFrame): RootBook {
    const rows = frame.select(...ROOT_COLUMNS.map((c) => pl.col(c))).toRecords() as Record<string, unknown>[];
    return new RootBook(rows.map((r) => {
      const spans = ((r.OptionTradeDates ?? []) as string[]).map((s) => s.split(":")).filter((s) => s.length === 2).sort();
      const end = spans.at(-1)?.[1];
      return {
        root: String(r.OptionTicker),
        under: String(r.UnderTicker),
        underSecId: String(r.UnderSecId),
        first: spans.length ? day(spans[0][0]) : "0000-01-01",
        last: end === undefined || end >= "29990101" ? undefined : day(end),
        delisted: r.OptionListStatus === "D",
        greeks: r.GreeksCoverage !== "N",
      };
    }));
  }

  /** Every root, sorted. */
  get roots(): string[] {
    return [...this.byRoot.keys()].sort();
  }

  /** Whether `root` is a known option root. */
  has(root: string): boolean {
    return this.byRoot.has(root);
  }

  /** Whether opt-greeks-daily values the root's contracts (GreeksCoverage). */
  hasGreeks(root: string): boolean {
    return this.byRoot.get(root)?.greeks ?? false;
  }

  /** The roots whose underlying is `ticker` (SPX: SPXW; CVX: CVX and the adjusted HES1). */
  rootsOf(ticker: string): string[] {
    return [...this.byRoot.values()].filter((r) => r.under === ticker).map((r) => r.root).sort();
  }

  /**
   * Why a root has no data from `from` on (it stopped trading before), or undefined while it
   * trades: renamed (the root of the same underlying that began the next day), else delisted,
   * naming the adjusted roots (`HES1`) its contracts became.
   */
  endedBefore(root: string, from: string): string | undefined {
    const r = this.byRoot.get(root);
    if (!r || r.last === undefined || from <= r.last) return undefined;
    const next = addDays(r.last, 1);
    // The new name: the next root of the same underlying security, not an adjusted one (HES1).
    const renamed = [...this.byRoot.values()].filter((o) => o.underSecId === r.underSecId && o.first >= next && !adjustedOf(root, o.root))
      .sort((a, b) => a.first.localeCompare(b.first))[0];
    if (renamed) {
      return `option root ${root} was renamed: its options trade as ${renamed.root} from ${renamed.first} (${root}'s last day was ${r.last}); ask for ${renamed.root}`;
    }
    const adjusted = [...this.byRoot.values()].filter((o) => adjustedOf(root, o.root) && o.first >= next).map((o) =>
      `${o.root} (from ${o.first}, underlying ${o.under})`
    );
    return `option root ${root} ${r.delisted ? "was delisted" : "stopped trading"} after ${r.last}${
      adjusted.length ? `; its contracts were adjusted into ${adjusted.join(", ")}` : ""
    }`;
  }

  /** Why a root has no data up to `to` (it began after, e.g. the new name of a renamed root), or undefined. */
  startedAfter(root: string, to: string): string | undefined {
    const r = this.byRoot.get(root);
    if (!r || r.first <= to) return undefined;
    const before = [...this.byRoot.values()].filter((o) =>
      o.underSecId === r.underSecId && o.last !== undefined && o.last < r.first && o.root !== root && !adjustedOf(o.root, root)
    )
      .sort((a, b) => a.last!.localeCompare(b.last!)).at(-1);
    return `option root ${root} begins on ${r.first}${
      before ? `: until ${before.last} its options traded as ${before.root}; ask for ${before.root}` : ""
    }`;
  }

  /** " (did you mean 'AAPL'?)", or for an underlying the roots its options trade under. */
  hint(root: string): { text: string; near: string[] } {
    const of = this.rootsOf(root).filter((r) => r !== root);
    if (of.length) {
      return {
        text: ` (${root} is the underlying of option root${of.length > 1 ? "s" : ""} ${of.join(", ")}: ask for ${of.join(" or ")})`,
        near: of,
      };
    }
    return { text: didYouMean(root, this.roots), near: nearestNames(root, this.roots) };
  }
}

/**
 * Refuses roots the book does not know (nearest ones, or the root of an underlying, named),
 * roots asked for wholly after they stopped (renamed, delisted: what they became), and greeks
 * of roots the master says they do not cover. `from` is the first date asked for, when known.
 *
 * @example
 * ```ts
 * checkRootsInBook(book, "opt-greeks-daily", ["APPL"], "2023-11-21");
 * // UnknownTickerError: opt-greeks-daily: unknown option root APPL (did you mean 'AAPL'?); known option roots are AAPL, CVX, ...
 * ```
 */
export function checkRootsInBook(book: RootBook, dataset: string, roots: readonly string[], from: string | undefined): void {
  const unknown = roots.filter((r) => !book.has(r));
  if (unknown.length > 0) {
    const hints = unknown.map((r) => ({ r, ...book.hint(r) }));
    throw new UnknownTickerError(
      `${dataset}: unknown option root${unknown.length > 1 ? "s" : ""} ${
        hints.map((h) => `${h.r}${h.text}`).join(", ")
      }; known option roots are ${book.roots.join(", ")}`,
      unknown,
      Object.fromEntries(hints.map((h) => [h.r, h.near])),
    );
  }
  if (from !== undefined) {
    const ended = roots.map((r) => book.endedBefore(r, from)).filter((x): x is string => x !== undefined);
    if (ended.length > 0) throw new QueryError(`${dataset} from ${from}: ${ended.join("; ")}`);
  }
  if (dataset === "opt-greeks-daily") {
    const uncovered = roots.filter((r) => !book.hasGreeks(r));
    if (uncovered.length > 0) {
      throw new QueryError(
        `opt-greeks-daily holds no row of ${
          uncovered.join(", ")
        }: opt-sec-master says its greeks are not computed (GreeksCoverage N); opt-open-interest lists ${
          uncovered.length > 1 ? "their" : "its"
        } contracts`,
      );
    }
  }
}

const books = new WeakMap<TickerSource, Promise<RootBook | undefined>>();
const loaded = new WeakMap<TickerSource, RootBook | undefined>();

/**
 * The options security master as a RootBook, once per source (one request); undefined when the
 * identity may not read `opt-sec-master`.
 *
 * @example
 * ```ts
 * const book = await rootBook(facts);
 * book?.rootsOf("SPX"); // ["SPXW"]
 * ```
 */
export function rootBook(source: TickerSource): Promise<RootBook | undefined> {
  let book = books.get(source);
  if (!book) {
    book = source.rules().then(async (
      rules,
    ) => (source.optionRoots && rules.some((r) => r.dataset_text_id === "opt-sec-master")
      ? RootBook.fromFrame(await source.optionRoots())
      : undefined)
    );
    book.then((b) => loaded.set(source, b), () => books.delete(source));
    books.set(source, book);
  }
  return book;
}

/** The root book if this session has loaded it (no request), else undefined. */
export function loadedRootBook(source: TickerSource): RootBook | undefined {
  return loaded.get(source);
}
