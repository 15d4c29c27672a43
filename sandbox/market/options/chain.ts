/**
 * The contracts a root has listed: expiries as its schedule brings them in range, strikes as
 * the underlying moves into new bands, each contract carrying its open interest. Expired
 * contracts leave the chain; a corporate action moves a whole chain to another root.
 */
import type { Expiry, ExpiryKind } from "./expiries.ts";
import { roundStrike } from "./strikes.ts";

export interface Contract {
  expiry: string;
  kind: ExpiryKind;
  strike: number;
  call: boolean;
  /** Open interest at the previous trading day's close: what today's OCC file reports. */
  openInterest: number;
}

const keyOf = (expiry: string, strike: number, call: boolean) => `${expiry}|${strike}|${call ? "C" : "P"}`;

export class Chain {
  private readonly byKey = new Map<string, Contract>();

  get size(): number {
    return this.byKey.size;
  }

  /**
   * Lists a call and a put at each strike not yet listed for the expiry; `initialOpenInterest`
   * gives a new contract its first open interest (0 for one listed today).
   *
   * @example
   * ```ts
   * const chain = new Chain();
   * chain.list({ date: "2023-12-15", kind: "quarterly" }, [185, 190], () => 0).length; // 4 new contracts
   * ```
   */
  list(expiry: Expiry, strikes: readonly number[], initialOpenInterest: (c: Contract) => number): Contract[] {
    const added: Contract[] = [];
    for (const raw of strikes) {
      const strike = roundStrike(raw);
      for (const call of [true, false]) {
        const key = keyOf(expiry.date, strike, call);
        if (this.byKey.has(key)) continue;
        const c: Contract = { expiry: expiry.date, kind: expiry.kind, strike, call, openInterest: 0 };
        c.openInterest = initialOpenInterest(c);
        this.byKey.set(key, c);
        added.push(c);
      }
    }
    return added;
  }

  /** Removes contracts that expired before `date` (those expiring on `date` still trade today). */
  dropExpired(date: string): void {
    for (const [key, c] of this.byKey) if (c.expiry < date) this.byKey.delete(key);
  }

  /** Moves every contract of `other` into this chain, leaving `other` empty. */
  takeOver(other: Chain): void {
    for (const [key, c] of other.byKey) this.byKey.set(key, c);
    other.byKey.clear();
  }

  /** Contracts in key order: expiry, strike, call before put. */
  sorted(): Contract[] {
    return [...this.byKey.values()].sort((a, b) =>
      a.expiry < b.expiry ? -1 : a.expiry > b.expiry ? 1 : a.strike - b.strike || Number(b.call) - Number(a.call)
    );
  }
}
