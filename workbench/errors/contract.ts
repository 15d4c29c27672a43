/**
 * The service answered, but not in the shape the contract (contract/) describes: a drifted or
 * foreign service. Names the endpoint, the field and what came instead, so a notebook stops
 * at the answer rather than at an `undefined` far from it.
 */
import { type ErrorContext, WorkbenchError } from "./base.ts";

/**
 * The service's answer does not match the contract: names the endpoint, the field and what
 * came instead.
 *
 * @example
 * ```ts
 * try {
 *   await wb.account.quotasRaw();
 * } catch (e) {
 *   if (e instanceof ContractError) console.log(e.endpoint, e.field, e.received);
 * }
 * ```
 */
export class ContractError extends WorkbenchError {
  /** The request, e.g. `GET /api/v1/account/my`. */
  readonly endpoint: string;
  /** The field's path in the answer, e.g. `quotas_limit.monthly_requests` (`(answer)` for the whole). */
  readonly field: string;
  /** The value that came instead (as received). */
  readonly received: unknown;
  /**
   * An answer that does not match the contract.
   *
   * @param message what differs from the contract
   * @param context the answer's context, with the endpoint, the field and the value received
   */
  constructor(message: string, context: ErrorContext & { endpoint: string; field: string; received: unknown }) {
    super(message, context);
    this.endpoint = context.endpoint;
    this.field = context.field;
    this.received = context.received;
  }
}
