/** A dataset id the workbench does not know: names the id, the nearest known ones and all of them. */
import { WorkbenchError } from "./base.ts";

export class UnknownDatasetError extends WorkbenchError {
  /** The id asked for. */
  readonly dataset: string;
  /** Every dataset id the workbench knows. */
  readonly known: readonly string[];
  constructor(message: string, context: { dataset: string; known: readonly string[] }) {
    super(message);
    this.dataset = context.dataset;
    this.known = context.known;
  }
}
