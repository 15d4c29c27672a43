/**
 * Makes every Polars DataFrame display through `frameBundle` when it is a cell's value in the
 * Deno kernel.
 *
 * nodejs-polars builds each frame as a Proxy around an object literal that carries its own
 * `Symbol.for("Jupyter.display")` method, so there is no shared prototype to patch (the
 * prototype is `Object.prototype`). Every frame, whichever function makes it (`pl.DataFrame`,
 * `readParquet`, `select`, `collect` ...), comes from the `_DataFrame` factory that the package's
 * modules look up on `bin/dataframe.js`'s exports at each call: wrapping that factory gives each
 * new frame our display method.
 */
import { createRequire } from "node:module";
import type pl from "nodejs-polars";
import { type FrameDisplayOptions, frameBundle } from "./frameHtml.ts";
import { JUPYTER_DISPLAY, showBundle } from "./jupyter.ts";

type FrameFactory = (inner: unknown) => pl.DataFrame;

let installed: FrameDisplayOptions | undefined;

/**
 * Installs rich frame display for the session (idempotent; later calls change the options).
 * Frames made before the first call keep nodejs-polars' own display.
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
  const frames = createRequire(import.meta.url)("nodejs-polars/bin/dataframe.js") as { _DataFrame: FrameFactory };
  const make = frames._DataFrame;
  frames._DataFrame = (inner) => {
    const frame = make(inner);
    // The frame's Proxy forwards this assignment to the wrapped object, replacing Polars' method.
    (frame as unknown as Record<symbol, unknown>)[JUPYTER_DISPLAY] = () => frameBundle(frame, installed);
    return frame;
  };
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
