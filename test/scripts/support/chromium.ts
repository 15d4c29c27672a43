/**
 * Headless Chromium (Debian's package, installed by `node scripts/setup.mjs --chromium`) for a
 * test file, driven by playwright-core: one browser per file, started by the first page that
 * asks for it, and a new page per look (a browser start costs about a CPU second; a page
 * little). Offline: no network features, a throwaway profile.
 *
 * @example
 * ```ts
 * const browser = fileBrowser();
 * afterAll(() => browser.close());
 * const page = await browser.open("out/report.html", 1200, 2000);
 * const [png, dom] = [await page.screenshot(), await page.content()];
 * ```
 */
import { chromium, type Browser, type Page } from "playwright-core";
import { pathToFileURL } from "node:url";
import { which } from "../../../scripts/paths.mjs";

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"];

function chromiumPath(): string {
  const path = which("chromium");
  if (!path) throw new Error("Cannot find chromium: run `node scripts/setup.mjs --chromium` (npm test does)");
  return path;
}

/** The file's browser: pages on demand, and how to close it. */
export interface FileBrowser {
  /** A new `width` x `height` page showing the local HTML file, once it has loaded (its scripts run). */
  open: (htmlPath: string, width?: number, height?: number) => Promise<Page>;
  /** Closes the browser if it was started. */
  close: () => Promise<void>;
}

/** The file's headless Chromium, started on first use. */
export function fileBrowser(): FileBrowser {
  let launching: Promise<Browser> | undefined;
  return {
    open: async (htmlPath, width = 1200, height = 2000) => {
      const browser = await (launching ??= chromium.launch({ executablePath: chromiumPath(), args: FLAGS }));
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(pathToFileURL(htmlPath).href, { waitUntil: "load", timeout: 60_000 });
      return page;
    },
    close: async () => {
      if (launching) await (await launching).close();
    },
  };
}
