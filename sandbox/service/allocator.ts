/**
 * How the process's C allocator (glibc malloc, which Polars allocates through) holds memory.
 * Left at its defaults, it keeps what Polars frees: every thread that allocates gets an arena
 * of its own (up to 8 per core: the workers, Polars' pool, the HTTP runtime), and after a
 * large buffer is freed it raises its mmap threshold, so where a buffer comes from shifts with
 * the load. The sandbox then sat at several times its caches' size after a burst of large
 * pages. Tuned here, once, in the main thread before the workers start: two arenas, buffers
 * below 64 MiB from them, larger ones mapped on their own and returned to the system when
 * freed (a fixed threshold also turns the raising off).
 *
 * Why 64 MiB: the workers free their frames soon after letting them go (frameCollector.ts), so
 * what a buffer frees is soon asked for again, and an arena hands it out again as it is. A
 * buffer mapped on its own is unmapped when freed and its successor starts as fresh pages, each
 * touch a page fault, dear on this project's virtual machines: at a 1 MiB threshold, with the
 * prompt collections, every decoded file and page body went that way, and the walks of
 * bench/sandbox.ts lost throughput to the faults. Only bodies beyond any page's size are
 * mapped now (figures: bench/RESULTS.md).
 */
/// <reference lib="deno.ns" />

/** mallopt parameters (glibc's malloc.h). */
const M_TRIM_THRESHOLD = -1, M_MMAP_THRESHOLD = -3, M_ARENA_MAX = -8;

/** Arenas the process may create: enough for the workers not to queue on one lock. */
const ARENAS = 2;
/** Allocations from this size up are mapped on their own and unmapped when freed. */
const MMAP_THRESHOLD_BYTES = 64 * 2 ** 20;
/** Free memory at an arena's top beyond this goes back to the system. */
const TRIM_THRESHOLD_BYTES = 4 * 1024 * 1024;

/**
 * Tunes glibc's allocator for a long-running process that frees large buffers; returns a
 * line for the start-up report saying what was done, or why nothing was (not Linux, not
 * glibc, or no permission to load the C library). SANDBOX_ALLOCATOR=default leaves it as it
 * was (the benchmark's same-run baseline).
 *
 * @example
 * ```ts
 * console.log(tuneAllocator()); // "memory: C allocator tuned (2 arenas, buffers from 64 MiB mapped on their own)"
 * ```
 */
export function tuneAllocator(): string {
  if (Deno.env.get("SANDBOX_ALLOCATOR") === "default") return "memory: C allocator left at its defaults (SANDBOX_ALLOCATOR=default)";
  if (Deno.build.os !== "linux") return `memory: C allocator left at its defaults (tuned on Linux only, this is ${Deno.build.os})`;
  let libc;
  try {
    libc = Deno.dlopen("libc.so.6", { mallopt: { parameters: ["i32", "i32"], result: "i32" } });
  } catch (e) {
    return `memory: C allocator left at its defaults (glibc's libc.so.6 could not be loaded: ${(e as Error).message})`;
  }
  try {
    const failed = [[M_ARENA_MAX, ARENAS], [M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES], [M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES]]
      .filter(([param, value]) => libc.symbols.mallopt(param, value) !== 1)
      .map(([param, value]) => `mallopt(${param}, ${value})`);
    if (failed.length > 0) return `memory: C allocator partly tuned (${failed.join(", ")} refused)`;
    return `memory: C allocator tuned (${ARENAS} arenas, buffers from ${MMAP_THRESHOLD_BYTES / 2 ** 20} MiB mapped on their own)`;
  } finally {
    libc.close();
  }
}
