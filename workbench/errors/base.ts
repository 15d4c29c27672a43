/**
 * The root of every error the workbench throws. It carries what a researcher needs to act
 * (status, the service's detail, the request id to quote to support, the URL) and never the
 * API key. A fetch cut short keeps what it got: `partial` holds the rows fetched so far and
 * `resume()` continues from where it stopped.
 */
import type pl from "nodejs-polars";

export interface ErrorContext {
  status?: number;
  detail?: unknown;
  requestId?: string;
  url?: string;
}

export class WorkbenchError extends Error {
  readonly status?: number;
  readonly detail?: unknown;
  readonly requestId?: string;
  readonly url?: string;
  /** Rows fetched before the failure, in order, when the failure interrupted a paged fetch. */
  partial?: pl.DataFrame;
  /** Continues the interrupted fetch from the first missing row (same query, same order). */
  resume?: () => Promise<pl.DataFrame>;

  constructor(message: string, context: ErrorContext = {}) {
    super(message);
    this.name = new.target.name;
    this.status = context.status;
    this.detail = context.detail;
    this.requestId = context.requestId;
    this.url = context.url;
  }
}

/** Bad input caught before any request is sent, so no quota is spent on it. */
export class QueryError extends WorkbenchError {}
