/**
 * The in-memory form of one security-day of ticks: parallel typed columns in time order.
 * Codes index the tables below; the frame writer turns them into the dataset's strings.
 */

export const EVENT_TYPES = ["TRADE", "QUOTE BID", "QUOTE ASK", "TRADE CANCEL"] as const;
export const TRADE = 0, QUOTE_BID = 1, QUOTE_ASK = 2, TRADE_CANCEL = 3;

/** Market center codes as in consolidated TAQ; D is the FINRA trade reporting facility. */
export const EXCHANGES = ["Q", "N", "P", "Z", "K", "V", "U", "H", "J", "Y", "D"] as const;
export const TRF_EXCHANGE = EXCHANGES.indexOf("D");

/** Sale conditions: @ regular, F intermarket sweep, T extended hours, I odd lot, O/6 auctions; R quotes. */
export const CONDITIONS = ["@", "@I", "F", "FI", "T", "TI", "O", "6", "R"] as const;
export const COND_OPEN_AUCTION = CONDITIONS.indexOf("O");
export const COND_CLOSE_AUCTION = CONDITIONS.indexOf("6");
export const COND_QUOTE = CONDITIONS.indexOf("R");

/** One security-day of events, sorted by time, times strictly increasing. */
export interface TickColumns {
  length: number;
  /** Nanoseconds after New York midnight (exact: below 2^53). */
  nsOfDay: Float64Array;
  type: Uint8Array;
  price: Float64Array;
  size: Float64Array;
  exchange: Uint8Array;
  condition: Uint8Array;
}

/** A growable TickColumns, appended to in time order. */
export class TickBuffer {
  private cap: number;
  length = 0;
  nsOfDay: Float64Array;
  type: Uint8Array;
  price: Float64Array;
  size: Float64Array;
  exchange: Uint8Array;
  condition: Uint8Array;

  constructor(capacity: number) {
    this.cap = Math.max(16, Math.ceil(capacity));
    this.nsOfDay = new Float64Array(this.cap);
    this.type = new Uint8Array(this.cap);
    this.price = new Float64Array(this.cap);
    this.size = new Float64Array(this.cap);
    this.exchange = new Uint8Array(this.cap);
    this.condition = new Uint8Array(this.cap);
  }

  push(ns: number, type: number, price: number, size: number, exchange: number, condition: number): void {
    if (this.length === this.cap) this.grow();
    const i = this.length++;
    this.nsOfDay[i] = ns;
    this.type[i] = type;
    this.price[i] = price;
    this.size[i] = size;
    this.exchange[i] = exchange;
    this.condition[i] = condition;
  }

  private grow(): void {
    this.cap *= 2;
    const grow = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(this.cap);
      b.set(a);
      return b;
    };
    this.nsOfDay = grow(this.nsOfDay, (n) => new Float64Array(n));
    this.type = grow(this.type, (n) => new Uint8Array(n));
    this.price = grow(this.price, (n) => new Float64Array(n));
    this.size = grow(this.size, (n) => new Float64Array(n));
    this.exchange = grow(this.exchange, (n) => new Uint8Array(n));
    this.condition = grow(this.condition, (n) => new Uint8Array(n));
  }

  /** The filled part as TickColumns (views, no copy). */
  columns(): TickColumns {
    const n = this.length;
    return {
      length: n,
      nsOfDay: this.nsOfDay.subarray(0, n),
      type: this.type.subarray(0, n),
      price: this.price.subarray(0, n),
      size: this.size.subarray(0, n),
      exchange: this.exchange.subarray(0, n),
      condition: this.condition.subarray(0, n),
    };
  }
}
