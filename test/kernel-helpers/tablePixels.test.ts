/**
 * Frames as JupyterLab shows them, in headless Chromium (Debian's, driven by playwright-core):
 * the table sits in an output area carrying JupyterLab 4's own rendered-HTML table rules (which
 * right-align every cell and let text wrap). A wide frame's "… N more rows …" marker must be in
 * view at the left of its box, not pushed to the far right; float columns line up their
 * decimals; describe's counts read as integers. Screenshots stay in out/table-pixels/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pl from "nodejs-polars";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describe as describeFrame, frameBundle } from "../../kernel-helpers/mod.ts";
import { outDir } from "../../scripts/paths.mjs";
import { fileBrowser } from "../scripts/support/chromium.ts";

/** JupyterLab 4.x's rules for tables in rendered HTML (packages/rendermime/style/base.css), as they apply in an output area. */
const JUPYTERLAB_TABLE_CSS = `
.jp-RenderedHTMLCommon table{border-collapse:collapse;border-spacing:0;border:none;font-size:12px;table-layout:fixed;margin-left:auto;margin-bottom:1em;margin-right:auto}
.jp-RenderedHTMLCommon thead{border-bottom:1px solid #ccc;vertical-align:bottom}
.jp-RenderedHTMLCommon td,.jp-RenderedHTMLCommon th,.jp-RenderedHTMLCommon tr{vertical-align:middle;padding:.5em;line-height:normal;white-space:normal;max-width:none;border:none}
:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td,:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon th,:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon tr{text-align:right}
.jp-RenderedHTMLCommon tbody tr:nth-child(odd){background:#fff}.jp-RenderedHTMLCommon tbody tr:nth-child(even){background:#f5f5f5}
.jp-OutputArea-output.jp-RenderedHTMLCommon table{margin-left:0;margin-right:0}
.jp-OutputArea-output{width:860px;overflow-x:auto}
`;

const shots = join(outDir, "table-pixels");
let page: Page;

/** Shows `html` as a cell output in a 900 px page and returns the page. */
async function show(name: string, html: string): Promise<Page> {
  const file = join(shots, `${name}.html`);
  writeFileSync(
    file,
    `<!doctype html><html><head><meta charset="utf-8"><style>${JUPYTERLAB_TABLE_CSS}</style></head><body style="margin:10px;background:#fff"><div class="jp-OutputArea-output jp-RenderedHTMLCommon">${html}</div></body></html>`,
  );
  await page.goto(`file://${file}`);
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  return page;
}

const browser = fileBrowser();
beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  page = await browser.page(900, 700);
}, 60_000);
afterAll(() => browser.close());

describe("frames under JupyterLab's table styles, in Chromium", () => {
  it("keeps the '… N more rows …' marker of a wide frame in view at the left of its box, on one line", async () => {
    const wide = pl.DataFrame(
      Object.fromEntries(Array.from({ length: 40 }, (_, j) => [`column_${j}`, Array.from({ length: 1000 }, (_, i) => i * 1.5 + j)])),
    );
    const p = await show("wide-frame", String(frameBundle(wide)["text/html"]));
    const box = (await p.locator(".wb-box").boundingBox())!;
    const marker = p.locator(".wb-gap span");
    expect(await marker.innerText()).toBe("… 980 more rows …");
    const at = (await marker.boundingBox())!;
    expect(at.x).toBeGreaterThanOrEqual(box.x);
    expect(at.x + at.width).toBeLessThanOrEqual(box.x + 200);
    expect(at.height).toBeLessThan(24); // one line
    // Cells keep their own padding and do not wrap: a row is one line of text.
    const row = (await p.locator(".wb-frame tbody tr").first().boundingBox())!;
    expect(row.height).toBeLessThan(24);
    // Scrolled to the far right, the marker is still in view.
    await p.locator(".wb-box").evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    const scrolled = (await marker.boundingBox())!;
    expect(scrolled.x).toBeGreaterThanOrEqual(box.x);
    expect(scrolled.x + scrolled.width).toBeLessThanOrEqual(box.x + box.width);
    await p.screenshot({ path: join(shots, "wide-frame-scrolled.png") });
  });

  it("lines up each float column's decimal points and shows describe's counts as integers", async () => {
    const prices = pl.DataFrame([
      pl.Series("Close", [174.41, 174.88, 1234567.25, 0.5], pl.Float64),
      pl.Series("Volume", [959, 12, 7_000_000, 3], pl.Int64),
    ]);
    const p = await show("floats", String(frameBundle(prices)["text/html"]));
    const cells = p.locator(".wb-frame tbody tr td:first-child");
    expect(await cells.allInnerTexts()).toEqual(["174.41", "174.88", "1,234,567.25", "0.50"]);
    // Right-aligned monospace text with equal decimals: every cell ends at the same x.
    const rights = await cells.evaluateAll((tds) =>
      tds.map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        return Math.round(range.getBoundingClientRect().right);
      })
    );
    expect(new Set(rights).size).toBe(1);
    const d = await show("describe", String(frameBundle(describeFrame(prices))["text/html"]));
    const count = await d.locator(".wb-frame tbody tr").first().locator("td").allInnerTexts();
    expect(count).toEqual(["count", "4", "4"]);
  });
});
