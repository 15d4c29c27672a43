/** Paths the benchmarks share. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The real vendor sample the market is calibrated against (shared/ sits beside the repo). */
export const SAMPLE_CSV = join(REPO_ROOT, "..", "shared", "data", "aapl-2020-01-28-taq-1min.csv");
