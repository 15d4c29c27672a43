/**
 * The entitlements card and `explain` in headless Chromium, which has no emoji font here: the
 * status icons are inline SVG, so their pixels are the icon's colour (green tick, red cross,
 * amber warning), where emoji would have drawn empty boxes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { entitlementCardBundle } from "../../kernel-helpers/entitlements/card.ts";
import { explain } from "../../kernel-helpers/mod.ts";
import { type AccessRule, Entitlements } from "../../workbench/mod.ts";
import { fileBrowser } from "../scripts/support/chromium.ts";
import { decodePng, type Image } from "../scripts/support/png.ts";

const rules: AccessRule[] = [
  {
    dataset_text_id: "eq-taq-1min",
    dataset_id: "7",
    dataset_name: "Equity TAQ 1-minute bars",
    dataset_version: "1",
    start_date: "2023-11-21",
    end_date: "2023-11-27",
    universe_identifiers: ["AAPL"],
  },
];
const ent = new Entitlements({ identity_id: 1, name: "Desk", max_active_api_keys: 2, ip_subnets: [] }, rules, {
  quotas_usage: { per_minute_requests: 1, monthly_requests: 95, monthly_data_scanned: 2 ** 30, monthly_data_returned: 0 },
  quotas_limit: { per_minute_requests: 30, monthly_requests: 100, monthly_data_scanned: 10 * 2 ** 30, monthly_data_returned: 5 * 2 ** 30 },
});
const refused = explain(ent.may("eq-taq-1min", { ticker: "TSLA", date: "2020-01-02" })) as unknown as Record<
  symbol,
  () => Record<string, string>
>;

const dir = mkdtempSync(join(tmpdir(), "entitlement-icons-"));
const browser = fileBrowser();
afterAll(() => browser.close());
let image: Image;
let icons: { kind: string; left: number; top: number; width: number; height: number }[];

beforeAll(async () => {
  const page = join(dir, "card.html");
  const measure =
    `document.getElementById("out").textContent = JSON.stringify([...document.querySelectorAll("svg.wb-icon")].map((s) => { const r = s.getBoundingClientRect(); return { kind: s.getAttribute("aria-label"), left: r.left, top: r.top, width: r.width, height: r.height }; }));`;
  writeFileSync(
    page,
    `<!doctype html><meta charset="utf-8"><body style="margin:10px;background:#fff">${entitlementCardBundle(ent)["text/html"]}${
      refused[Symbol.for("Jupyter.display")]()["text/html"]
    }<pre id="out"></pre><script>${measure}</script></body>`,
  );
  // One page: its script measures the icons on load, then the same page is photographed.
  const tab = await browser.open(page, 800, 600);
  icons = JSON.parse((await tab.content()).match(/<pre id="out">([^<]*)<\/pre>/)![1].replace(/&quot;/g, '"'));
  image = decodePng(await tab.screenshot());
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pixels = (box: { left: number; top: number; width: number; height: number }) => {
  const out: number[][] = [];
  for (let y = Math.ceil(box.top); y < box.top + box.height; y++) {
    for (let x = Math.ceil(box.left); x < box.left + box.width; x++) {
      const i = (y * image.width + x) * 4;
      out.push([image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]]);
    }
  }
  return out;
};

it("draws each icon in its colour, with its white mark, in a browser without emoji fonts", () => {
  expect(icons.map((i) => i.kind)).toEqual(["allowed", "warning", "refused"]); // dataset row, the 95% gauge, explain
  const dominant: Record<string, (p: number[]) => boolean> = {
    allowed: ([r, g, b]) => g > 130 && g > r + 60 && g > b + 30,
    refused: ([r, g, b]) => r > 180 && g < 90 && b < 90,
    warning: ([r, g, b]) => r > 200 && g > 140 && b < 60,
  };
  for (const icon of icons) {
    expect(icon.width).toBe(16);
    const inside = pixels(icon);
    expect(inside.filter(dominant[icon.kind]).length).toBeGreaterThan(inside.length * 0.4);
    expect(inside.filter(([r, g, b]) => r > 240 && g > 240 && b > 240).length).toBeGreaterThan(5); // the white tick, cross or bang
  }
});
