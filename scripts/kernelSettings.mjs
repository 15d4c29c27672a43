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
