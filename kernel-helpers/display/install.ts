/**
 * Makes every Polars DataFrame display through `frameBundle` when it is a cell's value in the
 * Deno kernel, by giving the DataFrame prototype the kernel's display method.
 */
import pl from "nodejs-polars";
import { type FrameDisplayOptions, frameBundle } from "./frameHtml.ts";
import { JUPYTER_DISPLAY, showBundle } from "./jupyter.ts";

let installed: FrameDisplayOptions | undefined;

/**
 * Installs rich frame display for the session (idempotent; later calls change the options).
 *
 * @example
 * ```ts
 * import { installDisplay } from "./kernel-helpers/mod.ts";
 * installDisplay({ maxRows: 30 });
 * df; // a cell ending in a frame now shows its table with dtypes
 * ```
 */
export function installDisplay(options: FrameDisplayOptions = {}): void {
  const first = installed === undefined;
  installed = options;
  if (!first) return;
  const proto = Object.getPrototypeOf(pl.DataFrame({}));
  Object.defineProperty(proto, JUPYTER_DISPLAY, {
    configurable: true,
    value(this: pl.DataFrame) {
      return frameBundle(this, installed);
    },
  });
}

/**
 * Shows a frame now (useful in the middle of a cell).
 *
 * @example
 * ```ts
 * await show(df, { maxRows: 10 });
 * ```
 */
export function show(frame: pl.DataFrame, options: FrameDisplayOptions = {}): Promise<void> {
  return showBundle(frameBundle(frame, options));
}
