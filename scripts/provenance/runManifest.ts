/**
 * The run's provenance manifest (`<name>.provenance.json`): the calls every workbench of the
 * kernel made, with the notebook, its parameters, the workbench's git commit, the Deno and
 * nodejs-polars versions and the time of the run; and the short footer the HTML report shows.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { hashScheme, nodejsPolarsVersion } from "../../workbench/provenance/frameHash.ts";
import { MANIFEST_VERSION, type RunManifest } from "../../workbench/provenance/manifest.ts";
import { repoRoot } from "../paths.mjs";
import type { KernelProvenance } from "./cell.ts";

/** The repository's commit, and whether files differ from it; empty outside a git checkout. */
function gitVersion(): RunManifest["workbench"] {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repoRoot, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    return { commit: git("rev-parse", "HEAD"), dirty: git("status", "--porcelain", "--untracked-files=no").length > 0 };
  } catch {
    return {};
  }
}

/**
 * The manifest of one run, from what the kernel reported.
 *
 * @example
 * const manifest = runManifest(collected, { notebook: "recipes/daily.ipynb", notebookPath, parameters: {}, ranAt, seconds: 12.3 });
 */
export function runManifest(
  collected: KernelProvenance,
  run: {
    notebook: string;
    notebookPath: string;
    parameters: Record<string, string>;
    ranAt: string;
    seconds: number;
    failedCell?: RunManifest["failedCell"];
  },
): RunManifest {
  const calls = collected.manifests.flatMap((m) => m.calls.map((call) => ({ ...call, service: m.service.baseUrl })));
  const downloads = collected.manifests.flatMap((m) => (m.downloads ?? []).map((d) => ({ ...d, service: m.service.baseUrl })));
  const manifest: RunManifest = {
    version: MANIFEST_VERSION,
    notebook: run.notebook,
    notebookSha256: createHash("sha256").update(readFileSync(run.notebookPath)).digest("hex"),
    parameters: run.parameters,
    ranAt: run.ranAt,
    seconds: Math.round(run.seconds * 10) / 10,
    workbench: gitVersion(),
    versions: { deno: collected.deno, nodejsPolars: nodejsPolarsVersion() },
    services: [
      ...new Set(collected.manifests.filter((m) => m.calls.length + (m.downloads?.length ?? 0) > 0).map((m) => m.service.baseUrl)),
    ],
    hash: collected.manifests.find((m) => m.hash)?.hash ?? hashScheme(),
    outcome: run.failedCell ? "failed" : "completed",
    calls,
  };
  if (downloads.length > 0) manifest.downloads = downloads;
  if (run.failedCell) manifest.failedCell = run.failedCell;
  return manifest;
}

const FOOTER_ROWS = 12;

/**
 * A markdown cell summing the manifest up for the report: datasets, rows, hashes, service, when
 * (for a manifest with at least one call).
 *
 * @example
 * executed.notebook.cells.push(footerCell(manifest, "daily.provenance.json"));
 */
export function footerCell(manifest: RunManifest, fileName: string): Record<string, unknown> {
  const commit = manifest.workbench.commit
    ? `${manifest.workbench.commit.slice(0, 10)}${manifest.workbench.dirty ? " (with local changes)" : ""}`
    : "not a git checkout";
  const params = Object.entries(manifest.parameters).map(([k, v]) => `${k}=${v}`).join(", ") || "defaults";
  const hashCell = (c: RunManifest["calls"][number]) => (c.error ? `failed: ${c.error.name}` : `\`${c.frameHash!.slice(0, 23)}…\``);
  const rows = manifest.calls.slice(0, FOOTER_ROWS).map((c) =>
    `| ${c.seq} | ${c.dataset} | ${c.rows.toLocaleString("en-US")} | ${hashCell(c)} | ${c.status.last_updated ?? "?"} |`
  );
  const more = manifest.calls.length > FOOTER_ROWS ? [`\n…and ${manifest.calls.length - FOOTER_ROWS} more calls in the manifest.`] : [];
  const lines = [
    "---",
    "### Provenance",
    ...(manifest.failedCell
      ? [
        `**This run failed** at cell ${manifest.failedCell.index} (${manifest.failedCell.error}); the calls below are those made before it.`,
        "",
      ]
      : []),
    `Run ${manifest.ranAt} against ${manifest.services.join(", ") || "no service"} with ${params}; workbench ${commit}, Deno ${
      manifest.versions.deno ?? "?"
    }, nodejs-polars ${manifest.versions.nodejsPolars ?? "?"}; frame hashes ${manifest.hash?.scheme ?? "sha256 canonical"}.`,
    "",
    "| call | dataset | rows | frame hash | data last updated |\n|---:|---|---:|---|---|\n" + rows.join("\n"),
    ...more,
    ...(manifest.downloads ?? []).map((d) =>
      `\nDownload ${d.seq}: ${d.dataset} into \`${d.dir}\`: ${d.fetched.length.toLocaleString("en-US")} partitions fetched (${
        d.rows.toLocaleString("en-US")
      } rows), ${d.reused.toLocaleString("en-US")} reused${d.error ? `; failed: ${d.error.name}` : ""}.`
    ),
    "",
    `Full manifest: \`${fileName}\`; re-run and compare with \`npm run notebook -- <notebook> --verify ${fileName}\`.`,
  ];
  return { cell_type: "markdown", id: "provenance-footer", metadata: { tags: ["provenance-footer"] }, source: lines.join("\n") };
}
