/**
 * Regular-session shading from the one calendar (calendar/): 09:30-16:00 New York, 13:00 on
 * early-close days, nothing on holidays and weekends.
 */
import { type TradingDay, tradingSessions } from "../../workbench/mod.ts";

/** The trading days from `first` to `last` (YYYY-MM-DD, inclusive). */
export const sessionsBetween = (first: string, last: string): TradingDay[] => tradingSessions(first, last);

/** "YYYY-MM-DD" of a wall-clock UTC instant. */
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** A wall-clock UTC instant at `minute` after midnight of `day`. */
export const atMinute = (day: string, minute: number) => new Date(Date.parse(`${day}T00:00:00Z`) + minute * 60_000);

/** Points beyond which charts drop per-point hover titles (each costs ~100 bytes of SVG). */
export const HOVER_LIMIT = 2000;
