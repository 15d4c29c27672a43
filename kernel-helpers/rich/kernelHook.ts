/**
 * Rich display for every value a cell shows, whenever and however it was made.
 *
 * The Deno kernel formats each cell's value in `broadcastResult(executionCount, value)` on its
 * internal jupyter object, looked up at each execution; wrapping it lets us choose the bundle
 * for values that carry no display method of ours: frames made before this module loaded
 * (nodejs-polars builds each frame as a Proxy with its own display method and no shared
 * prototype, so nothing else reaches them), Series, LazyFrames and workbench objects.
 * `Deno.jupyter.display(value)` is wrapped the same way.
 */
import { Workbench } from "../../workbench/mod.ts";
import type { FrameDisplayOptions } from "../display/frameHtml.ts";
import type { MediaBundle } from "../display/jupyter.ts";
import { richBundle, richBundleAsync } from "./richBundle.ts";

type Broadcast = (executionCount: number, result: unknown) => Promise<void>;
type Display = (obj: unknown, options?: { raw?: boolean; update?: boolean; display_id?: string }) => Promise<void>;
interface Internals {
  jupyter?: { broadcastResult?: Broadcast };
}

const HOOKED = Symbol.for("market-workbench.displayHook");

/** A value the kernel shows as exactly `bundle`. */
const asDisplay = (bundle: MediaBundle) => ({ [Symbol.for("Jupyter.display")]: () => bundle });

/** A rendering failure must never cost the user their output: fall back to the kernel's own display. */
function safeRich(value: unknown, options: () => FrameDisplayOptions): MediaBundle | undefined {
  try {
    return richBundle(value, options());
  } catch {
    return undefined;
  }
}

/** A workbench's card needs its account read: awaited, and on failure the kernel's own display (its inspect shows no key). */
async function workbenchRich(value: Workbench, options: () => FrameDisplayOptions): Promise<MediaBundle | undefined> {
  try {
    return await richBundleAsync(value, options());
  } catch {
    return undefined;
  }
}

/**
 * Wraps the kernel's result and display functions once per kernel (no-op outside a kernel).
 *
 * @example
 * ```ts
 * hookKernel(() => ({ maxRows: 30 }));
 * ```
 */
export function hookKernel(options: () => FrameDisplayOptions): boolean {
  const deno =
    (globalThis as { Deno?: Record<symbol | string, unknown> & { internal?: symbol; jupyter?: Record<string | symbol, unknown> } }).Deno;
  let jupyter: Record<string | symbol, unknown> | undefined;
  try {
    jupyter = deno?.jupyter;
  } catch {
    return false;
  }
  const internals = deno?.internal ? (deno[deno.internal] as Internals | undefined) : undefined;
  const kernel = internals?.jupyter;
  if (!jupyter || !kernel?.broadcastResult) return false;
  if (kernel.broadcastResult && (kernel.broadcastResult as unknown as Record<symbol, boolean>)[HOOKED]) return true;
  const broadcast = kernel.broadcastResult;
  const wrapped: Broadcast = function (this: unknown, count, result) {
    if (result instanceof Workbench) {
      return workbenchRich(result, options).then((bundle) => broadcast.call(this, count, bundle ? asDisplay(bundle) : result));
    }
    const bundle = safeRich(result, options);
    return broadcast.call(this, count, bundle ? asDisplay(bundle) : result);
  };
  Object.defineProperty(wrapped, HOOKED, { value: true });
  kernel.broadcastResult = wrapped;
  const display = jupyter.display as Display;
  jupyter.display = function (this: unknown, obj: unknown, opts: Parameters<Display>[1] = {}) {
    if (obj instanceof Workbench && !opts.raw) {
      return workbenchRich(obj, options).then((bundle) => display.call(this, bundle ?? obj, bundle ? { ...opts, raw: true } : opts));
    }
    const bundle = opts.raw ? undefined : safeRich(obj, options);
    return display.call(this, bundle ?? obj, bundle ? { ...opts, raw: true } : opts);
  } as Display;
  return true;
}
