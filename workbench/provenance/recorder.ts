/**
 * Records a session's data calls and downloads for its provenance manifest: it observes every
 * call of the workbench's pipeline, opening a `CallTap` as a call starts (a `DownloadTap` for a
 * download) that hears the call's events. Each recorder also joins a
 * registry on `globalThis[Symbol.for("market-workbench.provenance")]`, so the notebook runner
 * can collect the calls of every workbench a kernel made. When `MARKETDATA_PROVENANCE_JOURNAL`
 * names a file (the runner sets it), each record is also appended there as it is made, one JSON
 * line each: a notebook whose cell failed never runs the runner's collecting cell, and its
 * manifest (marked failed) is built from that journal.
 */
import type { CallInfo, CallListener, CallObserver } from "../events/callEvents.ts";
import { envVar } from "../runtime/env.ts";
import { withoutCredentials } from "../errors/credentials.ts";
import { appendLine, PRIVATE_FILE } from "../runtime/files.ts";
import { CallTap } from "./callTap.ts";
import { DownloadTap } from "./downloadTap.ts";
import { runDeferred } from "./deferred.ts";
import { hashScheme } from "./frameHash.ts";
import {
  type CallRecord,
  type DownloadRecord,
  type HashSchemeRecord,
  MANIFEST_VERSION,
  type ProvenanceManifest,
  publicBaseUrl,
  statusAtCall,
  type StatusRead,
} from "./manifest.ts";

export { CallTap } from "./callTap.ts";

/** Where every recorder of the process (the kernel) is listed, for the notebook runner. */
const REGISTRY = Symbol.for("market-workbench.provenance");

/** What the registry holds: anything that can give its manifest. */
export interface ManifestSource {
  /** The provenance manifest it holds now. */
  manifest(): ProvenanceManifest;
}

function registry(): ManifestSource[] {
  const g = globalThis as unknown as Record<symbol, ManifestSource[] | undefined>;
  return (g[REGISTRY] ??= []);
}

/** One line of the journal (`MARKETDATA_PROVENANCE_JOURNAL`): a call or a download of one recorder. */
interface JournalLine {
  recorder: string;
  /** The service's base URL. */
  service: string;
  /** How the hashes of the records were computed. */
  hash: HashSchemeRecord;
  /** A data call's record. */
  call?: CallRecord;
  /** A download's record. */
  download?: DownloadRecord;
}

/**
 * The manifests a journal's lines make up, one per recorder (as the collecting cell would give
 * them).
 *
 * @example
 * ```ts
 * const manifests = manifestsOfJournal(readFileSync(journalPath, "utf8"));
 * ```
 */
export function manifestsOfJournal(text: string): ProvenanceManifest[] {
  const byRecorder = new Map<string, ProvenanceManifest>();
  for (const raw of text.split("\n")) {
    let line: JournalLine;
    try {
      line = JSON.parse(raw);
    } catch {
      continue; // an empty or torn last line
    }
    const m = byRecorder.get(line.recorder) ??
      { version: MANIFEST_VERSION, createdAt: "", service: { baseUrl: line.service }, hash: line.hash, calls: [] };
    byRecorder.set(line.recorder, m);
    if (line.call) m.calls.push(line.call);
    if (line.download) (m.downloads ??= []).push(line.download);
  }
  // Records are journalled as they complete (hashing is deferred), not as they started: in order again, as manifest() gives them.
  for (const m of byRecorder.values()) {
    m.calls.sort((a, b) => a.seq - b.seq);
    m.downloads?.sort((a, b) => a.seq - b.seq);
  }
  return [...byRecorder.values()];
}

/**
 * A workbench's record of its data calls and downloads.
 *
 * @example
 * ```ts
 * const recorder = new ProvenanceRecorder("http://127.0.0.1:8000", (id) => facts.guardStatus(id), (text) => transport.redact(text));
 * // given to the pipeline as an observer; recorder.manifest() is what wb.provenance() returns
 * ```
 */
export class ProvenanceRecorder implements ManifestSource, CallObserver {
  /** The tap behind each listener handed out, so a resumed call can name the seq of the call it resumes. */
  readonly #taps = new WeakMap<object, CallTap>();
  private readonly calls: CallRecord[] = [];
  private readonly downloads: DownloadRecord[] = [];
  private readonly createdAt = new Date().toISOString();
  private seq = 0;
  private readonly journal = envVar("MARKETDATA_PROVENANCE_JOURNAL");
  /** Tells this recorder's lines apart from other workbenches' in the journal. */
  private readonly id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

  /**
   * A recorder of the calls of one workbench.
   *
   * @param baseUrl the service's address (written without any user name or password)
   * @param statusOf the dataset's status as the workbench caches it (free; read once per dataset)
   * @param redact masks what is never written (the API key, a URL's password) in an error's message
   * @param canonical whether each record also holds its frame's canonical hash (`canonicalHash`)
   */
  constructor(
    private readonly baseUrl: string,
    private readonly statusOf: StatusRead,
    readonly redact: (text: string) => string = withoutCredentials,
    readonly canonical = false,
  ) {
    registry().push(this);
  }

  /** Opens the record of a call (or download) as it starts; the status read runs alongside the fetch. */
  observe(call: CallInfo): CallListener {
    const status = statusAtCall(this.statusOf, call.dataset);
    if (call.kind === "download") {
      const tap = new DownloadTap(this, ++this.seq, {
        dataset: call.dataset,
        query: call.query,
        dir: call.dir ?? "",
        warnings: call.warnings,
      }, status);
      return (event) => tap.hear(event);
    }
    const tap = new CallTap(this, ++this.seq, call.dataset, { pathValues: call.pathValues, query: call.query }, status);
    const resumed = Array.isArray(call.resumes) ? call.resumes.map((l) => (l ? this.#taps.get(l) : undefined)).find(Boolean) : undefined;
    if (resumed) tap.resumes = resumed.seq;
    const listener: CallListener = (event) => tap.hear(event);
    this.#taps.set(listener, tap);
    return listener;
  }

  /** Keeps a finished (or failed) call's record, and journals it. */
  add(record: CallRecord): void {
    this.calls.push(record);
    this.write({ call: record });
  }

  /** Keeps a download's record, and journals it. */
  addDownload(record: DownloadRecord): void {
    this.downloads.push(record);
    this.write({ download: record });
  }

  /** Appends a record to the journal, when one is set. */
  private write(line: { call?: CallRecord; download?: DownloadRecord }): void {
    if (!this.journal) return;
    const entry: JournalLine = { recorder: this.id, service: publicBaseUrl(this.baseUrl), hash: this.hashRecord(), ...line };
    appendLine(this.journal, `${JSON.stringify(entry)}\n`, PRIVATE_FILE); // the user's own record: nobody else reads or forges it
  }

  /** How this recorder's hashes are made: the `rows` scheme, and the canonical one when recorded too. */
  private hashRecord(): HashSchemeRecord {
    return this.canonical ? { ...hashScheme(), canonical: "canonical/1" } : hashScheme();
  }

  /** The manifest so far: calls (and downloads) in the order they started, each finished one complete. */
  manifest(): ProvenanceManifest {
    runDeferred(); // the hashing that finished calls left for the event loop's waits
    const manifest: ProvenanceManifest = {
      version: MANIFEST_VERSION,
      createdAt: this.createdAt,
      service: { baseUrl: publicBaseUrl(this.baseUrl) },
      hash: this.hashRecord(),
      calls: [...this.calls].sort((a, b) => a.seq - b.seq),
    };
    if (this.downloads.length > 0) manifest.downloads = [...this.downloads].sort((a, b) => a.seq - b.seq);
    return manifest;
  }
}
