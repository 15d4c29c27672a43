/**
 * Headless Chromium (Debian's package, installed by `node scripts/setup.mjs --chromium`) for the
 * tests, driven by playwright-core: one browser per test process, started by the first page any
 * file asks for and kept for the files that follow in that process (they are not isolated; a
 * browser start costs more than a CPU second, a page little). Each file gets its own pages, each
 * in a fresh context, and closes them; the browser goes with the process (playwright ends it on
 * exit, and Chromium ends itself when its pipe to the process closes). Offline: no network
 * features, a throwaway profile.
 *
 * @example
 * ```ts
 * const browser = fileBrowser();
 * afterAll(() => browser.close());
 * const page = await browser.open("out/report.html", 1200, 2000);
 * const [png, dom] = [await page.screenshot(), await page.content()];
 * ```
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { pathToFileURL } from "node:url";
import { which } from "../../../scripts/paths.mjs";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
];

function chromiumPath(): string {
  const path = which("chromium");
  if (!path) throw new Error("Cannot find chromium: run `node scripts/setup.mjs --chromium` (npm test does)");
  return path;
}

let launched: Promise<Browser> | undefined;
/** The process's browser, launched on first use and again after it went away (a crash, a failed start). */
function processBrowser(): Promise<Browser> {
  if (!launched) {
    const launching = chromium.launch({ executablePath: chromiumPath(), args: FLAGS });
    launched = launching;
    const forget = () => {
      if (launched === launching) launched = undefined;
    };
    launching.then((browser) => browser.on("disconnected", forget), forget);
  }
  return launched;
}

/** A file's pages in the process's browser, and how to close them. */
export interface FileBrowser {
  /** A new blank `width` x `height` page in a context of its own. */
  page: (width?: number, height?: number) => Promise<Page>;
  /** A new `width` x `height` page showing the local HTML file, once it has loaded (its scripts run). */
  open: (htmlPath: string, width?: number, height?: number) => Promise<Page>;
  /** Closes the pages this file opened (the browser stays for the next file). */
  close: () => Promise<void>;
}

/** The file's pages in the test process's headless Chromium, started on first use. */
export function fileBrowser(): FileBrowser {
  const pages = new Set<Page>();
  const page = async (width = 1200, height = 2000) => {
    const created = await (await processBrowser()).newPage({ viewport: { width, height } });
    pages.add(created);
    return created;
  };
  return {
    page,
    open: async (htmlPath, width, height) => {
      const opened = await page(width, height);
      await opened.goto(pathToFileURL(htmlPath).href, { waitUntil: "load", timeout: 60_000 });
      return opened;
    },
    close: async () => {
      // A page made by browser.newPage owns its context: closing it closes the context too.
      await Promise.all([...pages].map((p) => p.close().catch(() => {})));
      pages.clear();
    },
  };
}
