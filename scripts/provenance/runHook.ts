/**
 * The runner's provenance step, between execution and the HTML report: takes the collected
 * calls out of the executed notebook, writes `<name>.provenance.json` next to it and adds the
 * provenance footer the report shows. When a cell failed, the collecting cell never ran: the
 * calls come from the journal the kernel's workbenches appended to
 * (`MARKETDATA_PROVENANCE_JOURNAL`, which `env` sets), and the manifest is marked failed with
 * the failing cell.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { RunManifest } from "../../workbench/provenance/manifest.ts";
import { manifestsOfJournal } from "../../workbench/provenance/recorder.ts";
import { SHARED_FILE, writeAtomically } from "../../workbench/runtime/files.ts";
import type { Notebook } from "../report.ts";
import { hasCellIds, type KernelProvenance, takeCollectCell } from "./cell.ts";
import { footerCell, runManifest } from "./runManifest.ts";

export interface ProvenanceStep {
  /** Environment for the kernel: where its workbenches journal their records. */
  env: Record<string, string>;
  /** Called by `runNotebook` with the executed notebook, before its report is written. */
  beforeReport: (executed: { outputPath: string; notebook: Notebook }) => void;
  /** The manifest written, once the run is over (marked failed when a cell failed). */
  manifest: () => RunManifest | undefined;
  /** Where it was written. */
  path: () => string | undefined;
  /** Removes the journal. */
  close: () => void;
}

/** The first cell showing an error (1-based, as the report numbers cells), with the error. */
function failingCell(notebook: Notebook): RunManifest["failedCell"] {
  // deno-lint-ignore no-explicit-any
  const cells = notebook.cells as any[];
  for (const [i, cell] of cells.entries()) {
    // deno-lint-ignore no-explicit-any
    const error = (cell.outputs ?? []).find((o: any) => o.output_type === "error");
    if (error) return { index: i + 1, error: `${error.ename}: ${error.evalue}`.slice(0, 500) };
  }
  return { index: cells.length, error: "the notebook stopped before its end (a timeout or a dead kernel)" };
}

/**
 * The provenance step of one run. `suffix` names the file: `.provenance.json` for a run,
 * `.rerun.provenance.json` for a `--verify` re-run (the manifest it checks stays as it was).
 *
 * @example
 * const step = provenanceStep({ notebook: "recipes/daily.ipynb", notebookPath, parameters: {} });
 * await runNotebook(copy, out, { env: { ...session.env, ...step.env }, beforeReport: step.beforeReport });
 */
export function provenanceStep(
  run: { notebook: string; notebookPath: string; parameters: Record<string, string>; suffix?: string },
): ProvenanceStep {
  const ranAt = new Date().toISOString();
  const started = performance.now();
  const journalDir = mkdtempSync(join(tmpdir(), "provenance-journal-"));
  const journal = join(journalDir, "calls.jsonl");
  let manifest: RunManifest | undefined;
  let path: string | undefined;
  return {
    env: { MARKETDATA_PROVENANCE_JOURNAL: journal },
    beforeReport: ({ outputPath, notebook }) => {
      let collected: KernelProvenance | undefined = takeCollectCell(notebook as Parameters<typeof takeCollectCell>[0]);
      let failedCell: RunManifest["failedCell"];
      if (!collected) {
        failedCell = failingCell(notebook);
        const manifests = existsSync(journal) ? manifestsOfJournal(readFileSync(journal, "utf8")) : [];
        collected = { deno: (globalThis as { Deno?: { version: { deno: string } } }).Deno?.version.deno ?? "?", manifests };
      }
      manifest = runManifest(collected, { ...run, ranAt, seconds: (performance.now() - started) / 1000, failedCell });
      path = join(dirname(outputPath), `${basename(outputPath, ".ipynb")}${run.suffix ?? ".provenance.json"}`);
      // Read beside the notebook by whoever reads its report; written by nobody else (0644 whatever the umask).
      writeAtomically(path, (tmp) => writeFileSync(tmp, JSON.stringify(manifest, null, 2) + "\n"), SHARED_FILE);
      // A notebook that fetched nothing and did not fail has no data to trace: its report stays as it was.
      if (manifest.calls.length > 0 || (manifest.downloads?.length ?? 0) > 0 || failedCell) {
        const footer = footerCell(manifest, basename(path));
        if (!hasCellIds(notebook as unknown as { nbformat: number; nbformat_minor: number })) delete footer.id;
        notebook.cells.push(footer as Notebook["cells"][number]);
      }
      // The executed copy loses the collecting cell (and gains the footer) either way.
      writeFileSync(outputPath, JSON.stringify(notebook, null, 1) + "\n");
    },
    manifest: () => manifest,
    path: () => path,
    close: () => rmSync(journalDir, { recursive: true, force: true }),
  };
}
