/**
 * Rich display for the session. In the Deno kernel this happens on import of the workbench or
 * of the kernel helpers (see `kernelHook.ts`); `installDisplay(options)` changes the options.
 *
 * Outside the kernel, `installDisplay` also gives each frame made afterwards our display method
 * (`frame[Symbol.for("Jupyter.display")]`), for other frontends that look it up: every frame
 * comes from the `_DataFrame` factory that nodejs-polars' modules look up on `bin/dataframe.js`'s
 * exports at each call, so wrapping that factory reaches them all.
 */
import { createRequire } from "node:module";
import type pl from "nodejs-polars";
import { frameBundle, type FrameDisplayOptions } from "../display/frameHtml.ts";
import { inKernel, JUPYTER_DISPLAY, showBundle } from "../display/jupyter.ts";

/** Whether the kernel was started with MARKETDATA_DEBUG=1 (full stacks of workbench errors). */
function debugStacks(): boolean {
  try {
    return (globalThis as { Deno?: { env: { get(n: string): string | undefined } } }).Deno?.env.get("MARKETDATA_DEBUG") === "1";
  } catch {
    return false;
  }
}
import { hookKernel } from "./kernelHook.ts";
import { richBundleAsync } from "./richBundle.ts";

type FrameFactory = (inner: unknown) => pl.DataFrame;

let current: FrameDisplayOptions = {};
let factoryWrapped = false;

/**
 * Installs rich display for the session (idempotent; a later call with options changes them).
 * Importing the workbench or the kernel helpers in a kernel already does this: call it only to
 * change the options.
 *
 * @example
 * ```ts
 * import { installDisplay } from "./kernel-helpers/mod.ts";
 * installDisplay({ maxRows: 30 });
 * df; // a cell ending in a frame shows its table with dtypes
 * ```
 */
export function installDisplay(options?: FrameDisplayOptions): void {
  if (options) current = options;
  // Workbench errors in a cell show their message and hint, not internal frames (MARKETDATA_DEBUG=1 keeps them).
  if (inKernel() && !debugStacks()) (globalThis as Record<symbol, unknown>)[Symbol.for("market-workbench.shortStacks")] = true;
  hookKernel(() => current);
  if (factoryWrapped) return;
  factoryWrapped = true;
  const frames = createRequire(import.meta.url)("nodejs-polars/bin/dataframe.js") as { _DataFrame: FrameFactory };
  const make = frames._DataFrame;
  frames._DataFrame = (inner) => {
    const frame = make(inner);
    // The frame's Proxy forwards this assignment to the wrapped object, replacing Polars' method.
    (frame as unknown as Record<symbol, unknown>)[JUPYTER_DISPLAY] = () => frameBundle(frame, current);
    return frame;
  };
}

/**
 * Shows a value now, richly when it is a frame, Series, LazyFrame or workbench object (useful
 * in the middle of a cell).
 *
 * @example
 * ```ts
 * await show(df, { maxRows: 10 });
 * ```
 */
export async function show(value: pl.DataFrame | unknown, options: FrameDisplayOptions = {}): Promise<void> {
  const bundle = await richBundleAsync(value, { ...current, ...options });
  return showBundle(bundle ?? { "text/plain": String(value) });
}
