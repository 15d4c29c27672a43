/**
 * The entitlements card: datasets with their date windows and ticker universes, and each quota
 * as a usage gauge.
 */
import type { Entitlements, Verdict } from "../../workbench/mod.ts";
import { displayable, type MediaBundle } from "../display/jupyter.ts";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const QUOTA_LABELS: Record<string, [string, (n: number) => string]> = {
  per_minute_requests: ["requests this minute", (n) => n.toLocaleString("en-US")],
  monthly_requests: ["requests this month", (n) => n.toLocaleString("en-US")],
  monthly_data_scanned: ["data scanned this month", bytes],
  monthly_data_returned: ["data returned this month", bytes],
};

function bytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB", "PB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n.toFixed(n < 10 && i > 0 ? 1 : 0)} ${units[i]}`;
}

/**
 * The card's media bundle.
 *
 * @example
 * ```ts
 * entitlementCard(await wb.entitlements()); // as a cell's value it renders the card
 * ```
 */
export function entitlementCardBundle(ent: Entitlements): MediaBundle {
  const rows = ent.rules.map((r) =>
    `<tr><td><b>${esc(r.dataset_text_id)}</b><br><span style="color:#888">${esc(r.dataset_name)}</span></td><td>${esc(r.start_date)} → ${esc(r.end_date ?? "ongoing")}</td><td>${r.universe_identifiers.length ? esc(r.universe_identifiers.join(", ")) : "all tickers"}</td></tr>`
  ).join("");
  const gauges = Object.entries(ent.quotas.quotas_limit).map(([k, limit]) => {
    const used = ent.quotas.quotas_usage[k as keyof typeof ent.quotas.quotas_usage];
    const share = limit > 0 ? Math.min(1, used / limit) : 1;
    const [label, fmt] = QUOTA_LABELS[k] ?? [k, String];
    const color = share >= 0.9 ? "#de2d26" : share >= 0.6 ? "#fd8d3c" : "#31a354";
    return `<div style="margin:4px 0"><div>${esc(label)}: ${fmt(used)} of ${fmt(limit)} (${(share * 100).toFixed(share < 0.01 && share > 0 ? 2 : 0)}%)</div><div style="background:#eee;height:8px;border-radius:3px;width:320px"><div style="width:${(share * 100).toFixed(1)}%;min-width:${used > 0 ? 2 : 0}px;height:100%;background:${color};border-radius:3px"></div></div></div>`;
  }).join("");
  const subnets = ent.identity.ip_subnets.length ? ent.identity.ip_subnets.join(", ") : "any address";
  const html = `<div style="font:13px sans-serif;border:1px solid #ddd;border-radius:6px;padding:10px;max-width:720px">
<div style="font-size:15px"><b>${esc(ent.identity.name)}</b> <span style="color:#888">identity ${ent.identity.identity_id} · up to ${ent.identity.max_active_api_keys} keys · from ${esc(subnets)}</span></div>
<table style="border-collapse:collapse;margin:8px 0" cellpadding="4"><thead><tr style="text-align:left;border-bottom:1px solid #ddd"><th>dataset</th><th>dates</th><th>tickers</th></tr></thead><tbody>${rows}</tbody></table>
<div><b>Quotas</b>${gauges}</div></div>`;
  const text = [
    `${ent.identity.name} (identity ${ent.identity.identity_id}, from ${subnets})`,
    ...ent.rules.map((r) => `  ${r.dataset_text_id}: ${r.start_date} to ${r.end_date ?? "ongoing"}, ${r.universe_identifiers.length ? r.universe_identifiers.join(", ") : "all tickers"}`),
    ...Object.entries(ent.quotas.quotas_limit).map(([k, limit]) => `  ${QUOTA_LABELS[k]?.[0] ?? k}: ${ent.quotas.quotas_usage[k as keyof typeof ent.quotas.quotas_usage]} of ${limit}`),
  ].join("\n");
  return { "text/html": html, "text/plain": text };
}

/** The card as a displayable value. */
export function entitlementCard(ent: Entitlements) {
  return displayable(entitlementCardBundle(ent));
}

/**
 * A verdict of `ent.may(...)` shown as a one-line answer.
 *
 * @example
 * ```ts
 * explain(ent.may("eq-taq", { ticker: "AAPL", date: "2023-11-21" }));
 * ```
 */
export function explain(verdict: Verdict) {
  const mark = verdict.allowed ? "✅" : "⛔";
  return displayable({
    "text/html": `<div style="font:13px sans-serif">${mark} ${esc(verdict.reason)}</div>`,
    "text/plain": `${verdict.allowed ? "allowed" : "refused"}: ${verdict.reason}`,
  });
}
