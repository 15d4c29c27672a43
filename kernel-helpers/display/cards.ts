/**
 * Cards for the workbench's plain objects: a download estimate, a dataset's status, a download
 * result, and errors with the service's detail list. Small key-value tables, same look as frames.
 */
import type { CacheCheck, DatasetStatus, DownloadResult, Estimate, WorkbenchError, WorkbenchSummary } from "../../workbench/mod.ts";
import { formatBytes } from "./bytes.ts";
import { escapeHtml } from "./html.ts";
import type { MediaBundle } from "./jupyter.ts";

/** One line of a card: its label and its value. */
export type CardRow = [label: string, value: string];

const n = (x: number) => Math.round(x).toLocaleString("en-US");

/** A titled key-value card (HTML and text). */
function card(title: string, rows: CardRow[], extraHtml = "", tone: "info" | "error" = "info"): MediaBundle {
  const border = tone === "error" ? "#d9534f" : "#9ecae1";
  const html =
    `<div style="font:13px sans-serif;border-left:4px solid ${border};padding:4px 10px;margin:2px 0;max-width:760px"><div style="font-weight:bold;margin-bottom:3px">${
      escapeHtml(title)
    }</div><table style="border-collapse:collapse">${
      rows.map(([k, v]) =>
        `<tr><td style="color:#666;padding:1px 12px 1px 0;vertical-align:top">${escapeHtml(k)}</td><td style="padding:1px 0">${
          escapeHtml(v)
        }</td></tr>`
      ).join("")
    }</table>${extraHtml}</div>`;
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  return { "text/html": html, "text/plain": [title, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join("\n") };
}

/** How an estimate found its rows, in words for its card. */
const HOW_COUNTED: Record<Estimate["basis"], string> = {
  "metadata": "scaled from the dataset's status",
  "minute-bars": "counted from the ticker's 1-minute bars",
  "sampled-days": "counted on the call's days",
  "symbol-rows": "counted by symbol",
};

/**
 * The card of an estimate: rows, requests and bytes, and how the rows were counted.
 *
 * @example
 * ```ts
 * estimateBundle(await wb.estimate("eq-taq-1min", { start: "2023-11-20", end: "2023-11-24" }, ["AAPL"]));
 * ```
 */
export function estimateBundle(e: Estimate): MediaBundle {
  return card(`Estimate: ${e.dataset}`, [
    [
      "rows (about)",
      `${n(e.rows)}, ${HOW_COUNTED[e.basis]}${
        e.countedDays ? ` (${n(e.countedDays.counted)} of ${n(e.countedDays.asked)} days read)` : ""
      }`,
    ],
    ...(e.lookupRequests > 0
      ? [["counting cost", `${n(e.lookupRequests)} request${e.lookupRequests === 1 ? "" : "s"}, ${formatBytes(e.lookupBytes)}`] as CardRow]
      : []),
    ...(e.lookupFailure ? [["not counted", e.lookupFailure] as CardRow] : []),
    ["requests", n(e.requests)],
    ["data", formatBytes(e.bytes)],
    ["time at the per-minute quota", `${e.minutesAtRateLimit < 1 ? "under a minute" : `${e.minutesAtRateLimit.toFixed(1)} min`}`],
    ["fits this month's quota", e.fitsMonthlyQuota ? "yes" : "no"],
    ["requests left this month", n(e.remaining.monthly_requests)],
    ["data left this month", formatBytes(e.remaining.monthly_data_returned)],
  ]);
}

/**
 * The card of a dataset's status: its first and last dates, rows and last update.
 *
 * @example
 * ```ts
 * statusBundle(await wb.meta.status("eq-taq-1min"));
 * ```
 */
export function statusBundle(s: DatasetStatus): MediaBundle {
  const rows: CardRow[] = Object.entries(s).map((
    [k, v],
  ) => [k.replace(/_/g, " "), typeof v === "number" ? n(v) : v === null ? "none" : String(v)]);
  return card("Dataset status", rows);
}

/**
 * The card of a finished download: its folder, partitions, rows and how to read it back.
 *
 * @example
 * ```ts
 * downloadBundle(await wb.download("eq-daily-ohlc", { start: "2023-11-20", end: "2023-11-24" }, "downloads/daily"));
 * ```
 */
export function downloadBundle(d: DownloadResult): MediaBundle {
  return card(`Download of ${d.dataset} ${d.resumed ? "resumed and " : ""}complete`, [
    ["folder", d.dir],
    ["partitions", `${n(d.partitions)} by ${d.layout.join("/") || "(one file)"}; ${n(d.fetched)} fetched by this call`],
    ["rows written", n(d.rows)],
    ["read it with", `wb.scan(${JSON.stringify(d.dir)})`],
  ]);
}

/**
 * The card of a cache check: the entries read and those found damaged.
 *
 * @example
 * ```ts
 * cacheCheckBundle(await wb.cache!.verify());
 * ```
 */
export function cacheCheckBundle(c: CacheCheck): MediaBundle {
  const rows: CardRow[] = [["folder", c.dir], ["service", c.service], ["fresh", `${n(c.fresh.length)} cached frames`]];
  for (const e of c.stale) rows.push([`stale: ${e.dataset}`, `${e.path} (${n(e.rows ?? 0)} rows, fetched ${e.fetchedAt}): ${e.reason}`]);
  for (const e of c.unknown) rows.push([`unknown: ${e.dataset}`, `${e.file}: ${e.reason}`]);
  if (c.removed > 0) rows.push(["removed", `${n(c.removed)} stale frames deleted`]);
  const title = c.stale.length === 0
    ? "Cache verified: nothing stale"
    : `Cache verified: ${n(c.stale.length)} stale of ${n(c.stale.length + c.fresh.length)}`;
  return card(title, rows, "", c.stale.length > 0 ? "error" : "info");
}

/** A quota as "used of limit", bytes in words. */
function usage(s: WorkbenchSummary, quota: "monthly_requests" | "monthly_data_returned"): string {
  const used = s.quotas!.quotas_usage[quota];
  const limit = s.quotas!.quotas_limit[quota];
  return quota === "monthly_requests" ? `${n(used)} of ${n(limit)} requests` : `${formatBytes(used)} of ${formatBytes(limit)} returned`;
}

/**
 * What `wb` shows as a cell's value: the service, the identity, the quotas (never the key).
 *
 * @example
 * ```ts
 * workbenchBundle(await wb.summary());
 * ```
 */
export function workbenchBundle(s: WorkbenchSummary): MediaBundle {
  const rows: CardRow[] = [["service", s.service]];
  if (s.identity) rows.push(["identity", `${s.identity.name} (id ${s.identity.id})`]);
  if (s.datasets) {
    rows.push([
      "datasets",
      s.datasets.length === 0
        ? "none readable"
        : `${s.datasets.length} readable: ${s.datasets.slice(0, 6).join(", ")}${s.datasets.length > 6 ? ", …" : ""}`,
    ]);
  }
  if (s.quotas) rows.push(["this month", `${usage(s, "monthly_requests")}; ${usage(s, "monthly_data_returned")}`]);
  rows.push(["cache", s.cache ?? "off"], ["provenance", s.recording ? "recorded (wb.provenance())" : "not recorded"]);
  if (s.problem) rows.push(["account not read", s.problem]);
  return card(`Workbench${s.identity ? ` of ${s.identity.name}` : ""}`, rows, "", s.problem ? "error" : "info");
}

/** Each entry of a 422 detail list as "where: message (input)". */
function detailLines(detail: unknown): string[] {
  if (typeof detail === "string") return [detail];
  if (!Array.isArray(detail)) return detail === undefined || detail === null ? [] : [JSON.stringify(detail)];
  return detail.map((d) => {
    const item = d as { loc?: unknown[]; msg?: string; input?: unknown };
    const where = Array.isArray(item.loc) ? item.loc.join(".") : "";
    const input = item.input === undefined ? "" : ` (got ${JSON.stringify(item.input)})`;
    return `${where ? `${where}: ` : ""}${item.msg ?? JSON.stringify(d)}${input}`;
  });
}

/**
 * The card of a workbench error: its class, message and detail.
 *
 * @example
 * ```ts
 * try {
 *   await wb.data.eqTaq1Min("AAPL");
 * } catch (e) {
 *   if (e instanceof WorkbenchError) errorBundle(e);
 * }
 * ```
 */
export function errorBundle(e: WorkbenchError): MediaBundle {
  const rows: CardRow[] = [["message", e.message]];
  if (e.status !== undefined) rows.push(["status", String(e.status)]);
  if (e.url) rows.push(["request", e.url]);
  if (e.requestId) rows.push(["request id", e.requestId]);
  if (e.partial) rows.push(["rows fetched before it failed", `${n(e.partial.height)} (in .partial; .resume() continues)`]);
  const lines = detailLines((e as { issues?: unknown }).issues ?? e.detail);
  const list = lines.length
    ? `<ul style="margin:4px 0 0 18px;padding:0">${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`
    : "";
  const bundle = card(e.name, rows, list, "error");
  return { ...bundle, "text/plain": [String(bundle["text/plain"]), ...lines.map((l) => `  - ${l}`)].join("\n") };
}
