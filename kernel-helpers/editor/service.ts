/**
 * The editor's entry in the kernel. The project's kernel relay (scripts/jupyter-kernel/)
 * answers a `complete_request` or an `inspect_request` by running, as a silent cell,
 * `await globalThis[Symbol.for("market-workbench.editor")]?.({ kind, code, cursor })`: this
 * function answers with the reply's content as a media bundle of EDITOR_MIME, or with nothing
 * when the Deno kernel's own answer should stand (a kernel where the helpers are not loaded
 * answers nothing either).
 */
import { complete, type CompleteReply } from "./complete.ts";
import { docIndex } from "./indexFile.ts";
import { inspect, type InspectReply } from "./inspect.ts";

/** The MIME type of the editor's answer, which the relay reads and never shows. */
const EDITOR_MIME = "application/vnd.market-workbench.editor+json";

/** What the relay asks. */
interface EditorRequest {
  kind: "complete" | "inspect";
  /** The cell's code. */
  code: string;
  /** The cursor, in code points (as the Jupyter protocol counts). */
  cursor: number;
}

const KEY = Symbol.for("market-workbench.editor");

/**
 * The reply's content for `request`, or undefined to leave the request to the Deno kernel.
 *
 * @example
 * ```ts
 * const reply = await answerEditor({ kind: "complete", code: "wb.", cursor: 3 }, Deno.execPath());
 * ```
 */
async function answerEditor(request: EditorRequest, deno: string): Promise<CompleteReply | InspectReply | undefined> {
  const index = await docIndex(deno);
  return request.kind === "complete" ? complete(index, request.code, request.cursor) : inspect(index, request.code, request.cursor);
}

/**
 * Registers the editor's entry in this kernel (idempotent).
 *
 * @example
 * ```ts
 * installEditor(); // done on import of the kernel helpers in a kernel
 * ```
 */
export function installEditor(): void {
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  if (!deno) return;
  (globalThis as Record<symbol, unknown>)[KEY] = async (request: EditorRequest) => {
    try {
      const reply = await answerEditor(request, deno.execPath());
      return reply && { [Symbol.for("Jupyter.display")]: () => ({ [EDITOR_MIME]: reply }) };
    } catch (error) {
      // The kernel's own answer stands; the relay logs why, should its log be on.
      return { [Symbol.for("Jupyter.display")]: () => ({ [EDITOR_MIME]: { error: String((error as Error)?.message ?? error) } }) };
    }
  };
}
