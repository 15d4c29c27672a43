/**
 * Market profiles: which dates and securities a generated market holds.
 * `tiny` is for tests, `demo` the default, `large` a scaled range for benchmarks.
 */
import { SECURITIES } from "./securities.ts";

export interface Profile {
  name: "tiny" | "demo" | "large";
  start: string;
  end: string;
  tickers: string[];
  /** Multiplies the number of generated prints and quotes (sizes shrink to keep volumes). */
  eventScale: number;
}

const ALL_TICKERS = SECURITIES.map((s) => s.ticker);

const PROFILES: Record<Profile["name"], Profile> = {
  // Holds Thanksgiving (2023-11-23) and the early close after it (2023-11-24).
  tiny: { name: "tiny", start: "2023-11-20", end: "2023-11-28", tickers: ALL_TICKERS, eventScale: 1 },
  demo: { name: "demo", start: "2023-11-01", end: "2024-01-31", tickers: ALL_TICKERS, eventScale: 1 },
  large: { name: "large", start: "2023-05-01", end: "2024-01-31", tickers: ALL_TICKERS, eventScale: 1 },
};

/**
 * The profile with this name, optionally with its event scale changed (`large` at scale 2
 * emits twice the prints per day).
 *
 * @example
 * ```ts
 * const p = profileByName("large", 2);
 * ```
 */
export function profileByName(name: string, eventScale?: number): Profile {
  const base = (PROFILES as Record<string, Profile>)[name];
  if (!base) throw new Error(`Unknown profile '${name}': choose one of ${Object.keys(PROFILES).join(", ")}`);
  if (eventScale === undefined) return base;
  if (!(eventScale > 0 && eventScale <= 20)) throw new Error(`Event scale ${eventScale} is out of range: use a number in (0, 20]`);
  return { ...base, eventScale };
}
