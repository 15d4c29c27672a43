/**
 * Opens a local HTML file in headless Chromium (Debian's package, installed by
 * `node scripts/setup.mjs --chromium`): a screenshot, or the DOM after load. Offline: no
 * network features, a throwaway profile.
 */
import type { Buffer } from "node:buffer";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { which } from "../../../scripts/paths.mjs";
import { runOrThrow } from "../../../scripts/run.mjs";

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"];

function chromium(): string {
  const path = which("chromium");
  if (!path) throw new Error("Cannot find chromium: run `node scripts/setup.mjs --chromium` (npm test does)");
  return path;
}

async function withProfile<T>(action: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "chromium-"));
  try {
    return await action(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PNG screenshot of the page, `width` x `height` pixels. */
export function screenshot(htmlPath: string, width = 1200, height = 2000): Promise<Buffer> {
  return withProfile(async (dir) => {
    const png = join(dir, "screenshot.png");
    await runOrThrow(chromium(), [...FLAGS, `--user-data-dir=${join(dir, "profile")}`, `--screenshot=${png}`,
      `--window-size=${width},${height}`, pathToFileURL(htmlPath).href], { timeoutMs: 60_000 });
    return readFileSync(png);
  });
}

/** The page's DOM, serialised after load. */
export function dumpDom(htmlPath: string): Promise<string> {
  return withProfile(async (dir) => {
    const { stdout } = await runOrThrow(chromium(), [...FLAGS, `--user-data-dir=${join(dir, "profile")}`,
      "--dump-dom", pathToFileURL(htmlPath).href], { timeoutMs: 60_000 });
    return stdout;
  });
}
