/**
 * The one send path of a workbench: every data request, a call's pages and the workbench's own
 * reads (the lookup files, a ticker probe, an estimate's row count), goes through the chain
 * built here once: the per-minute rate window, then the call's quota gate (guard/, where the
 * call has one), then the transport (its retry policy owns every retry), then the call's
 * events (an answer, a page). The pager pages a request through it.
 */
import type pl from "nodejs-polars";
import type { CallEvent } from "../events/callEvents.ts";
import type { RateWindow } from "../http/rateWindow.ts";
import type { Transport } from "../http/transport.ts";
import { type callWire, type WireChoice, wireChoiceOf } from "../http/wireChoice.ts";
import type { PreparedRequest } from "../query/prepare.ts";
import { untilAborted } from "../runtime/interrupts.ts";
import { Pager, type PagerOptions, type Send } from "./pager.ts";

/** What holds a call's requests after its first until the first answer is judged (the quota guard's gate). */
export interface SendGate {
  /** Resolves when a request may go (the first at once); rejects to stop the call. */
  beforeSend(): Promise<void>;
  /** Hears every successful answer's headers (the first one is judged). */
  onHeaders(headers: Headers): void;
  /** A request settled, answered or not. */
  settled(): void;
}

/** What one request's walk through the chain takes: all optional (the workbench's own reads take none but `transport` and `onPage`). */
export interface SendOptions {
  /** The transport to send on (default the chain's: a call's own requests). */
  transport?: Transport;
  /** The call's quota gate. */
  gate?: SendGate;
  /** The call's abort signal: its waits and requests stop when it fires. */
  signal?: AbortSignal;
  /** The call's event stream, and the unit the pages belong to. */
  events?: { emit: (event: CallEvent) => void; unit: number };
  /** Hears each page once parsed, with its body's bytes. */
  onPage?: PagerOptions["onPage"];
  /** The call's wire-format choice when it names no format (http/wireChoice.ts): each answer metered, each page's format asked. */
  wire?: ReturnType<typeof callWire>;
}

/**
 * The chain of one workbench.
 *
 * @example
 * ```ts
 * const chain = new SendChain(transport, new RateWindow());
 * const frame = await chain.read(request);
 * ```
 */
export class SendChain {
  /** The chain over `transport`, within the per-minute `window`. */
  constructor(private readonly transport: Transport, private readonly window: RateWindow) {}

  /** The session's wire-format choice for this chain's service (http/wireChoice.ts). */
  get wireChoice(): WireChoice {
    return wireChoiceOf(this.transport);
  }

  /** Sends one GET through the chain. */
  send(options: SendOptions = {}): Send {
    const { gate, signal, events } = options;
    const transport = options.transport ?? this.transport;
    const emit = events?.emit;
    return async (path, params, onHeaders) => {
      if (gate) await untilAborted(gate.beforeSend(), signal);
      await this.window.acquire(
        emit ? (seconds) => emit({ type: "waiting", seconds, reason: "per-minute quota" }) : undefined,
        transport.maxWaitSeconds,
        signal,
      );
      try {
        const r = await transport.get(path, params, (headers) => {
          this.window.observe(headers);
          gate?.onHeaders(headers);
          onHeaders?.(headers);
        }, signal);
        if (events) {
          events.emit({
            type: "answer",
            unit: events.unit,
            requestId: r.headers.get("X-Request-ID"),
            bytes: r.wireBytes ?? r.body.byteLength,
          });
        }
        return r;
      } finally {
        gate?.settled();
      }
    };
  }

  /** A pager of `request` over the chain (`request.concurrency` pages in flight). */
  pager(request: PreparedRequest, options: SendOptions = {}): Pager {
    const { events, onPage } = options;
    const pages: PagerOptions["onPage"] = events
      ? (offset, frame, bytes) => {
        events.emit({ type: "page", unit: events.unit, offset, frame, bytes });
        onPage?.(offset, frame, bytes);
      }
      : onPage;
    const send = this.send(options);
    return new Pager(options.wire ? options.wire.metered(send) : send, request, { onPage: pages, wire: options.wire });
  }

  /** Every row of `request`, paged through the chain. */
  read(request: PreparedRequest, options: SendOptions = {}): Promise<pl.DataFrame> {
    return this.pager(request, options).fetchAll();
  }
}
