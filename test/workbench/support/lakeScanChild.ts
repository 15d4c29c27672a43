/**
 * Runs under Deno: scans each lake folder given (`wb.scan`'s own code) and collects its rows,
 * printing one JSON line per folder: its rows, or the error's class and message. Run as a child
 * process so that a reader's panic (an abort, exit 134) shows as its exit code, not as a dead
 * test worker. Usage: `deno run -A lakeScanChild.ts <dir> [<dir> ...]`.
 */
import process from "node:process";
import { scanLake } from "../../../workbench/store/lakeScan.ts";

for (const dir of process.argv.slice(2)) {
  try {
    const frame = scanLake(dir).collectSync();
    console.log(JSON.stringify({ dir, ok: true, rows: frame.height }));
  } catch (error) {
    console.log(
      JSON.stringify({ dir, ok: false, error: (error as Error).constructor.name, message: (error as Error).message.split("\n")[0] }),
    );
  }
}
