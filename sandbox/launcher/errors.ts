/**
 * The launcher's own errors: it runs the sandbox for the workbench and its users, and, as a part
 * of the sandbox, never imports the workbench's error classes.
 */

/**
 * A setting of `sandbox()` or the `market-workbench sandbox` command out of range, refused
 * before anything starts: the message names the setting, the value and what is allowed.
 *
 * @example
 * ```ts
 * try {
 *   await sandbox({ latencyMs: -1 });
 * } catch (e) {
 *   if (e instanceof SandboxSettingError) console.log(e.message); // the latency must be a number of milliseconds from 0 to 60000
 * }
 * ```
 */
export class SandboxSettingError extends Error {
  /** An error whose message names the setting, its value and what is allowed. */
  constructor(message: string) {
    super(message);
    this.name = "SandboxSettingError";
  }
}

/**
 * No Deno to run the sandbox with: the message says where the launcher looked and how to get one.
 *
 * @example
 * ```ts
 * try {
 *   await sandbox();
 * } catch (e) {
 *   if (e instanceof DenoNotFoundError) console.log(e.message); // npm install deno, or install Deno from deno.com
 * }
 * ```
 */
export class DenoNotFoundError extends Error {
  /** An error whose message says where the launcher looked and how to get Deno. */
  constructor(message: string) {
    super(message);
    this.name = "DenoNotFoundError";
  }
}
