/**
 * The service answered, but not in the shape the contract (contract/) describes: a drifted or
 * foreign service. Names the endpoint, the field and what came instead, so a notebook stops
 * at the answer rather than at an `undefined` far from it.
 */
import { type ErrorContext, WorkbenchError } from "./base.ts";

export class ContractError extends WorkbenchError {
  /** The request, e.g. `GET /api/v1/account/my`. */
  readonly endpoint: string;
  /** The field's path in the answer, e.g. `quotas_limit.monthly_requests` (`(answer)` for the whole). */
  readonly field: string;
  /** The value that came instead (as received). */
  readonly received: unknown;
  constructor(message: string, context: ErrorContext & { endpoint: string; field: string; received: unknown }) {
    super(message, context);
    this.endpoint = context.endpoint;
    this.field = context.field;
    this.received = context.received;
  }
}
