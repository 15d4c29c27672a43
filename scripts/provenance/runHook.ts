/**
 * The runner's provenance step, between execution and the HTML report: takes the collected
 * calls out of the executed notebook, writes `<name>.provenance.json` next to it and adds the
 * provenance footer the report shows.
 */
import { writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { RunManifest } from "../../workbench/provenance/manifest.ts";
import type { Notebook } from "../report.ts";
import { hasCellIds, takeCollectCell } from "./cell.ts";
import { footerCell, runManifest } from "./runManifest.ts";

export interface ProvenanceStep {
  /** Called by `runNotebook` with the executed notebook, before its report is written. */
  beforeReport: (executed: { outputPath: string; notebook: Notebook }) => void;
  /** The manifest written, once the run is over; undefined when the notebook stopped before the end. */
  manifest: () => RunManifest | undefined;
  /** Where it was written. */
  path: () => string | undefined;
}

/**
 * The provenance step of one run. `suffix` names the file: `.provenance.json` for a run,
 * `.rerun.provenance.json` for a `--verify` re-run (the manifest it checks stays as it was).
 *
 * @example
 * const step = provenanceStep({ notebook: "recipes/daily.ipynb", notebookPath, parameters: {} });
 * await runNotebook(copy, out, { beforeReport: step.beforeReport });
 */
export function provenanceStep(run: { notebook: string; notebookPath: string; parameters: Record<string, string>; suffix?: string }): ProvenanceStep {
  const ranAt = new Date().toISOString();
  const started = performance.now();
  let manifest: RunManifest | undefined;
  let path: string | undefined;
  return {
    beforeReport: ({ outputPath, notebook }) => {
      const collected = takeCollectCell(notebook as Parameters<typeof takeCollectCell>[0]);
      if (collected) {
        manifest = runManifest(collected, { ...run, ranAt, seconds: (performance.now() - started) / 1000 });
        path = join(dirname(outputPath), `${basename(outputPath, ".ipynb")}${run.suffix ?? ".provenance.json"}`);
        writeFileSync(path, JSON.stringify(manifest, null, 2) + "\n");
        // A notebook that fetched nothing has no data to trace: its report stays as it was.
        if (manifest.calls.length > 0) {
          const footer = footerCell(manifest, basename(path));
          if (!hasCellIds(notebook as unknown as { nbformat: number; nbformat_minor: number })) delete footer.id;
          notebook.cells.push(footer as Notebook["cells"][number]);
        }
      }
      // The executed copy loses the collecting cell (and gains the footer) either way.
      writeFileSync(outputPath, JSON.stringify(notebook, null, 1) + "\n");
    },
    manifest: () => manifest,
    path: () => path,
  };
}
