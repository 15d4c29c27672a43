/**
 * The national best bid and offer of one security through a day. Each update moves one side
 * toward a quote centred on the efficient price (sometimes both, or only a size), the way
 * consolidated NBBO updates arrive one side at a time. A one-sided move that would lock or
 * cross the market pulls the other side along (the other side first, so no lock shows between
 * the two updates), except rarely, so locked and crossed markets exist but stay rare and brief.
 */
import { Rng } from "../rng.ts";
import { tickSize } from "../securities.ts";
import { COND_QUOTE, QUOTE_ASK, QUOTE_BID, type TickBuffer } from "./tickColumns.ts";
import { drawExchange } from "./venues.ts";

/** A one-sided move that locks the market is left locked this rarely (until the next update). */
const LEAVE_LOCKED_PROBABILITY = 0.003;
const BOTH_SIDES_PROBABILITY = 0.2;

const round4 = (p: number) => Math.round(p * 1e4) / 1e4;

export class NbboBook {
  bid = NaN;
  ask = NaN;
  constructor(private rng: Rng, private depthLots: number, private listing: number, private out: TickBuffer) {}

  private size(): number {
    return 100 * Math.max(1, Math.round(this.rng.exponential(this.depthLots)));
  }

  private quote(ns: number, side: number, price: number): number {
    if (side === QUOTE_BID) this.bid = price;
    else this.ask = price;
    this.out.push(ns, side, price, this.size(), drawExchange(this.rng, this.listing, false), COND_QUOTE);
    return ns;
  }

  /** The quote {@link target} last made (fields, not an array per quote: there is one per NBBO update). */
  private targetBid = NaN;
  private targetAsk = NaN;

  /** A quote centred on `fair` that is `spread` ticks wide, into targetBid and targetAsk. */
  private target(fair: number, spread: number): void {
    const tick = tickSize(fair);
    const bidTicks = Math.round(fair / tick - spread / 2);
    this.targetBid = round4(Math.max(1, bidTicks) * tick);
    this.targetAsk = round4((Math.max(1, bidTicks) + spread) * tick);
  }

  /** Posts the first bid and ask of the day; returns the last time used. */
  open(ns: number, fair: number, spread: number): number {
    this.target(fair, spread);
    const bid = this.targetBid, ask = this.targetAsk;
    this.quote(ns, QUOTE_BID, bid);
    return this.quote(ns + 1, QUOTE_ASK, ask);
  }

  /** One NBBO update at `ns`; returns the last time used (an update of both sides takes two). */
  update(ns: number, fair: number, spread: number): number {
    this.target(fair, spread);
    const bid = this.targetBid, ask = this.targetAsk;
    const bidMove = Math.abs(bid - this.bid), askMove = Math.abs(ask - this.ask);
    if (bidMove === 0 && askMove === 0) {
      // Same prices: only the displayed size changes on one side.
      const side = this.rng.chance(0.5) ? QUOTE_BID : QUOTE_ASK;
      return this.quote(ns, side, side === QUOTE_BID ? this.bid : this.ask);
    }
    const both = this.rng.chance(BOTH_SIDES_PROBABILITY);
    // Moving one side onto or through the other would lock or cross the market.
    const bidLocks = bid >= this.ask, askLocks = ask <= this.bid;
    if (both || (bidLocks && !this.rng.chance(LEAVE_LOCKED_PROBABILITY)) || (askLocks && !this.rng.chance(LEAVE_LOCKED_PROBABILITY))) {
      // Both sides move: the side that moves away goes first, so the book never passes through a
      // lock for a nanosecond between the two updates.
      if (bidLocks) {
        this.quote(ns, QUOTE_ASK, ask);
        return this.quote(ns + 1, QUOTE_BID, bid);
      }
      this.quote(ns, QUOTE_BID, bid);
      return this.quote(ns + 1, QUOTE_ASK, ask);
    }
    const bidFirst = bidMove > askMove || (bidMove === askMove && this.rng.chance(0.5));
    this.quote(ns, bidFirst ? QUOTE_BID : QUOTE_ASK, bidFirst ? bid : ask);
    return ns;
  }
}
