/**
 * What a generated market is: its manifest (written to `manifest.json` beside the data) and
 * the generator version that made it. Apart from generate.ts, so that whoever only checks or
 * reads a market (the demo, the sandbox) does not load the generator.
 */
import type { TradingDay } from "../../calendar/calendar.ts";
import type { CorporateAction } from "./corporateActions.ts";
import type { Profile } from "./profiles.ts";
import type { Security } from "./securities.ts";

/** Bumped whenever generated data changes for the same profile and seed. */
export const GENERATOR_VERSION = 6;

/** What a generated market holds, written to `manifest.json` beside the data. */
export interface Manifest {
  generatorVersion: number;
  profile: Profile["name"];
  eventScale: number;
  seed: number;
  start: string;
  end: string;
  tradingDays: TradingDay[];
  securities: Security[];
  corporateActions: CorporateAction[];
  /** Rows and files written per dataset text id. */
  datasets: Record<string, { files: number; rows: number }>;
}
