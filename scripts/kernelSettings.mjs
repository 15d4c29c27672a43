// How the project's Deno kernel runs notebooks, beyond Deno's defaults.

/**
 * V8 flags of the notebook kernel (its kernelspec's DENO_V8_FLAGS). With V8's default initial
 * heap, the old generation's limits start so low that a pull of market data, whose pages and
 * frames live outside the JavaScript heap, runs a full mark-compact every few megabytes of
 * answers while the heap stays near 15 MB: a 128 MB initial heap lets the limits start higher,
 * so a third fewer of those run, and the heap itself stays the same size (bench/RESULTS.md).
 * Set where the kernel starts: V8 reads heap sizes once, when the process starts.
 */
export const KERNEL_V8_FLAGS = "--initial-heap-size=128";

/**
 * The project's Deno kernelspec (a kernel.json): Deno started behind the relay
 * (scripts/jupyter-kernel/relay.py, which keeps the kernel answering after a page reload:
 * docs/jupyter-kernel-reload.md), with the kernel's V8 flags. The repository's setup writes it
 * into `.cache/jupyter`; the installed package's `market-workbench kernel` into the user's Jupyter.
 *
 * @param {{ python: string, relay: string, deno: string, displayName?: string }} parts the Python
 *   that runs the relay (one with pyzmq: Jupyter's own), the relay's path, and the Deno executable
 * @example
 * writeFileSync("kernel.json", JSON.stringify(kernelSpec({ python: "/usr/bin/python3", relay: "{resource_dir}/relay.py", deno: "/usr/bin/deno" }), null, 2));
 */
export function kernelSpec({ python, relay, deno, displayName = "Deno" }) {
  return {
    argv: [python, relay, "{connection_file}", deno, "jupyter", "--kernel"],
    display_name: displayName,
    language: "typescript",
    interrupt_mode: "message",
    env: { NO_COLOR: "1", DENO_V8_FLAGS: KERNEL_V8_FLAGS },
  };
}
