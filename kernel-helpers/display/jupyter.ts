/**
 * The one bridge to the Deno kernel's display: rich output in a notebook, plain text
 * elsewhere (a terminal, a test), so every helper works in both.
 */

/** A Jupyter media bundle: MIME type to content. */
export type MediaBundle = Record<string, string | object>;

/** The symbol the Deno kernel looks up to let an object choose its own rendering. */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for("Jupyter.display");

interface DenoJupyter {
  display(obj: unknown, options?: { raw?: boolean; update?: boolean; display_id?: string }): Promise<void>;
}

/** The kernel's display API; reading `Deno.jupyter` outside `deno jupyter` throws, which tells us where we are. */
function kernel(): DenoJupyter | undefined {
  try {
    return (globalThis as { Deno?: { jupyter?: DenoJupyter } }).Deno?.jupyter;
  } catch {
    return undefined;
  }
}

/**
 * Whether code runs inside the Deno Jupyter kernel.
 *
 * @example
 * ```ts
 * if (!inKernel()) console.log("not in a notebook: charts print their title only");
 * ```
 */
export function inKernel(): boolean {
  return kernel() !== undefined;
}

/**
 * Shows a media bundle: in the kernel as rich output (optionally updating an earlier output
 * with the same `displayId`), elsewhere by printing its text/plain part.
 *
 * @example
 * ```ts
 * await showBundle({ "text/html": "<b>hi</b>", "text/plain": "hi" });
 * ```
 */
export async function showBundle(bundle: MediaBundle, options: { displayId?: string; update?: boolean } = {}): Promise<void> {
  const jupyter = kernel();
  if (jupyter) {
    await jupyter.display(bundle, { raw: true, display_id: options.displayId, update: options.update });
    return;
  }
  if (!options.update) console.log(String(bundle["text/plain"] ?? ""));
}

/** An object that renders as its media bundle when it is a cell's value in the Deno kernel. */
export type Displayable = { [JUPYTER_DISPLAY]: () => MediaBundle; toString: () => string };

/**
 * An object that renders as `bundle` when it is a cell's value in the Deno kernel.
 *
 * @example
 * ```ts
 * displayable({ "text/html": "<b>ready</b>", "text/plain": "ready" }); // as a cell's last value: bold "ready"
 * ```
 */
export function displayable(bundle: MediaBundle): Displayable {
  return { [JUPYTER_DISPLAY]: () => bundle, toString: () => String(bundle["text/plain"] ?? "") };
}
