/**
 * How the runner gets the provenance out of the kernel: it appends a cell that displays every
 * workbench's manifest (the registry on `globalThis[Symbol.for("market-workbench.provenance")]`)
 * and the kernel's Deno version under a MIME type of its own, and takes that cell out of the
 * executed notebook again. A notebook that failed before the end never ran the cell: its calls
 * come from the kernel's journal instead (see runHook.ts).
 */
import type { ProvenanceManifest } from "../../workbench/provenance/manifest.ts";

const PROVENANCE_MIME = "application/vnd.market-workbench.provenance+json";
const PROVENANCE_TAG = "provenance-collect";

// deno-lint-ignore no-explicit-any
type Notebook = { cells: any[]; nbformat: number; nbformat_minor: number };

/** What the appended cell reports from the kernel. */
export interface KernelProvenance {
  deno: string;
  manifests: ProvenanceManifest[];
}

const SOURCE = [
  "// Appended by `npm run notebook` to collect the provenance manifest; removed from the report.",
  "await (async () => {",
  '  const registry = (globalThis as any)[Symbol.for("market-workbench.provenance")] ?? [];',
  `  await Deno.jupyter.display({ "${PROVENANCE_MIME}": { deno: Deno.version.deno, manifests: registry.map((r: any) => r.manifest()) } }, { raw: true });`,
  "})();",
].join("\n");

/** Whether the notebook's format has cell ids (nbformat 4.5 and later). */
export const hasCellIds = (nb: { nbformat: number; nbformat_minor: number }) =>
  nb.nbformat > 4 || (nb.nbformat === 4 && nb.nbformat_minor >= 5);

/**
 * The notebook with the collecting cell at its end (a copy).
 *
 * @example
 * const run = withCollectCell(injectParameters(notebook, params));
 */
export function withCollectCell<T extends Notebook>(notebook: T): T {
  const copy = structuredClone(notebook);
  const cell: Record<string, unknown> = {
    cell_type: "code",
    execution_count: null,
    metadata: { tags: [PROVENANCE_TAG] },
    outputs: [],
    source: SOURCE,
  };
  if (hasCellIds(copy)) cell.id = PROVENANCE_TAG;
  copy.cells.push(cell);
  return copy;
}

/**
 * Removes the collecting cell from an executed notebook (in place) and returns what it
 * displayed, or undefined when it did not run (the notebook stopped before it).
 *
 * @example
 * const collected = takeCollectCell(executed.notebook);
 */
export function takeCollectCell(notebook: Notebook): KernelProvenance | undefined {
  const index = notebook.cells.findIndex((cell) => cell.metadata?.tags?.includes(PROVENANCE_TAG));
  if (index < 0) return undefined;
  const [cell] = notebook.cells.splice(index, 1);
  for (const out of cell.outputs ?? []) {
    const data = out.data?.[PROVENANCE_MIME];
    if (data !== undefined) return (typeof data === "string" ? JSON.parse(data) : data) as KernelProvenance;
  }
  return undefined;
}
