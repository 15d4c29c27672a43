/**
 * When the workbench is imported inside the Deno Jupyter kernel, installs the notebook's rich
 * display (frames, Series, LazyFrames, the workbench's own objects) with no call from the user.
 * Elsewhere (scripts, tests under Node or `deno run`) it does nothing and loads nothing.
 */

/** Whether code runs in `deno jupyter`: reading `Deno.jupyter` elsewhere is undefined or throws. */
function inJupyterKernel(): boolean {
  try {
    return (globalThis as { Deno?: { jupyter?: unknown } }).Deno?.jupyter !== undefined;
  } catch {
    return false;
  }
}

/**
 * Installs rich display when running in the kernel (idempotent).
 *
 * @example
 * ```ts
 * await installKernelDisplay(); // workbench/mod.ts does this on import
 * ```
 */
export async function installKernelDisplay(): Promise<void> {
  if (!inJupyterKernel()) return;
  // The display code lives with the kernel helpers; loaded only in a kernel, so the workbench
  // stays free of it elsewhere.
  const { installDisplay } = await import("../../kernel-helpers/display/install.ts");
  installDisplay(undefined);
}
