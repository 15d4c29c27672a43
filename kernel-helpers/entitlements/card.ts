/**
 * The entitlements card: each dataset with its date window and ticker universe beside what of
 * it is visible to this key (the dates and the count of tickers, or option roots, its status
 * gives, which the service scopes to the key's window and universe: never "the data holds"),
 * and each quota as a gauge with its percentage, bytes in binary units (GiB); icons are inline SVG.
 */
import type { Entitlements, Holding, Verdict } from "../../workbench/mod.ts";
import { formatBytes } from "../display/bytes.ts";
import { escapeHtml as esc } from "../display/html.ts";
import { type Displayable, displayable, type MediaBundle } from "../display/jupyter.ts";
import { icon } from "./icons.ts";

const QUOTA_LABELS: Record<string, [string, (n: number) => string]> = {
  per_minute_requests: ["requests this minute", (n) => n.toLocaleString("en-US")],
  monthly_requests: ["requests this month", (n) => n.toLocaleString("en-US")],
  monthly_data_scanned: ["data scanned this month", formatBytes],
  monthly_data_returned: ["data returned this month", formatBytes],
};

/** "0.45%", "45%", "100%": small shares keep two decimals so they do not read as zero. */
const percent = (share: number) => `${(share * 100).toFixed(share > 0 && share < 0.01 ? 2 : 0)}%`;

interface Gauge {
  label: string;
  text: string;
  share: number;
}

function gauges(ent: Entitlements): Gauge[] {
  return Object.entries(ent.quotas.quotas_limit).map(([k, limit]) => {
    const used = ent.quotas.quotas_usage[k as keyof typeof ent.quotas.quotas_usage];
    const share = limit > 0 ? Math.min(1, used / limit) : 1;
    const [label, fmt] = QUOTA_LABELS[k] ?? [k, String];
    return { label, share, text: `${fmt(used)} of ${fmt(limit)} (${percent(share)})` };
  });
}

function gaugeHtml(g: Gauge): string {
  const color = g.share >= 0.9 ? "#de2d26" : g.share >= 0.6 ? "#fd8d3c" : "#31a354";
  const mark = g.share >= 0.9 ? `${icon("warning")} ` : "";
  return `<div class="wb-gauge" style="margin:5px 0"><div>${mark}${esc(g.label)}: ${
    esc(g.text)
  }</div><div style="background:#eee;height:8px;border-radius:3px;width:320px"><div style="width:${(g.share * 100).toFixed(1)}%;min-width:${
    g.share > 0 ? 2 : 0
  }px;height:100%;background:${color};border-radius:3px"></div></div></div>`;
}

/** What of a dataset this key sees, in a few words: "2023-11-01 to 2024-01-31, 14 tickers" or "…, 15 option roots". */
function visible(h: Holding | undefined): string {
  if (!h) return "not known";
  if (h.unread !== undefined) return `not known (${h.unread})`;
  if (!h.first || !h.last) return "no row (empty)";
  // The status's count (scoped to this key), else the names the service knows.
  const count = h.tickerCount ?? h.tickers?.length ?? h.roots?.length;
  const noun = h.symbol ?? "ticker";
  return `${h.first} to ${h.last}${count === undefined ? "" : `, ${count} ${noun}${count === 1 ? "" : "s"}`}`;
}

/** The names the service knows (tickers, or option roots) in full as a tooltip (the cell shows the count). */
function knownTitle(h: Holding | undefined): string {
  const names = h?.tickers ?? h?.roots;
  return names?.length ? ` title="${esc(`the service knows ${names.length}: ${names.join(", ")}`)}"` : "";
}

/**
 * The card's media bundle.
 *
 * @example
 * ```ts
 * entitlementCardBundle(await wb.entitlements())["text/plain"];
 * ```
 */
export function entitlementCardBundle(ent: Entitlements): MediaBundle {
  const known = Object.keys(ent.holdings ?? {}).length > 0;
  const held = (r: Entitlements["rules"][number]) => ent.holdings[r.dataset_text_id];
  const rows = ent.rules.map((r) =>
    `<tr><td>${icon("allowed")} <b>${esc(r.dataset_text_id)}</b><br><span style="color:#888">${esc(r.dataset_name)}</span></td><td>${
      esc(r.start_date)
    } → ${esc(r.end_date ?? "ongoing")}</td><td>${
      r.universe_identifiers.length ? esc(r.universe_identifiers.join(", ")) : `all ${held(r)?.symbol ?? "ticker"}s`
    }</td>${known ? `<td${knownTitle(held(r))}>${esc(visible(held(r)))}</td>` : ""}</tr>`
  ).join("");
  const subnets = ent.identity.ip_subnets.length ? ent.identity.ip_subnets.join(", ") : "any address";
  const all = gauges(ent);
  const html =
    `<div class="wb-entitlements" style="font:13px sans-serif;border:1px solid #ddd;border-radius:6px;padding:10px;max-width:720px">
<div style="font-size:15px"><b>${
      esc(ent.identity.name)
    }</b> <span style="color:#888">identity ${ent.identity.identity_id} · up to ${ent.identity.max_active_api_keys} keys · from ${
      esc(subnets)
    }</span></div>
<table style="border-collapse:collapse;margin:8px 0" cellpadding="4"><thead><tr style="text-align:left;border-bottom:1px solid #ddd"><th>dataset</th><th>dates</th><th>tickers</th>${
      known
        ? `<th title="what this key's window and universe let it see of each dataset (its status is scoped to the key)">visible to you</th>`
        : ""
    }</tr></thead><tbody>${rows}</tbody></table>
<div><b>Quotas</b>${all.map(gaugeHtml).join("")}</div></div>`;
  const text = [
    `${ent.identity.name} (identity ${ent.identity.identity_id}, from ${subnets})`,
    ...ent.rules.map((r) =>
      `  ${r.dataset_text_id}: ${r.start_date} to ${r.end_date ?? "ongoing"}, ${
        r.universe_identifiers.length ? r.universe_identifiers.join(", ") : `all ${held(r)?.symbol ?? "ticker"}s`
      }${known ? `; visible to you: ${visible(held(r))}` : ""}`
    ),
    ...all.map((g) => `  ${g.label}: ${g.text}`),
  ].join("\n");
  return { "text/html": html, "text/plain": text };
}

/**
 * The card as a displayable value (in a kernel, `await wb.entitlements()` as a cell's value
 * already shows it).
 *
 * @example
 * ```ts
 * entitlementCard(await wb.entitlements());
 * ```
 */
export function entitlementCard(ent: Entitlements): Displayable {
  return displayable(entitlementCardBundle(ent));
}

/**
 * A verdict of `ent.may(...)` as an answer listing every reason a read is refused and every
 * reason the data would hold no row for it (an entitled read of a ticker or date the dataset
 * does not hold).
 *
 * @example
 * ```ts
 * const ent = await wb.entitlements();
 * explain(ent.may("eq-taq-1min", { ticker: "TSLA", date: "2020-01-02" })); // the date and the ticker the data does not hold
 * ```
 */
export function explain(verdict: Verdict): Displayable {
  const reasons = verdict.allowed ? [] : (verdict.reasons?.length ? verdict.reasons : [verdict.reason]);
  const missing = verdict.missing ?? [];
  const count = (n: number) => (n > 1 ? ` for ${n} reasons` : "");
  const list = (items: string[]) => `<ul style="margin:2px 0 0 22px;padding:0">${items.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>`;
  const dataHtml = missing.length
    ? `<div>${icon("warning")} <b>${
      verdict.allowed ? "allowed, but the data holds no row for it" : "and the data holds no row for it"
    }</b>:${list(missing)}</div>`
    : "";
  const dataText = missing.length
    ? [
      `${verdict.allowed ? "allowed, but the data holds no row for it" : "and the data holds no row for it"}:`,
      ...missing.map((r) => `  - ${r}`),
    ]
    : [];
  let html: string, text: string[];
  if (verdict.allowed && missing.length) {
    const entitled = verdict.reason.split(", but the data holds no row")[0];
    html = `<div style="font:13px sans-serif">${dataHtml}<div style="color:#666">${icon("allowed")} entitled: ${esc(entitled)}</div></div>`;
    text = [...dataText, `entitled: ${entitled}`];
  } else if (verdict.allowed) {
    html = `<div style="font:13px sans-serif">${icon("allowed")} ${esc(verdict.reason)}</div>`;
    text = [`allowed: ${verdict.reason}`];
  } else {
    html = `<div style="font:13px sans-serif">${icon("refused")} <b>refused</b>${count(reasons.length)}:${list(reasons)}${dataHtml}</div>`;
    text = [`refused${count(reasons.length)}:`, ...reasons.map((r) => `  - ${r}`), ...dataText];
  }
  return displayable({ "text/html": html, "text/plain": text.join("\n") });
}
