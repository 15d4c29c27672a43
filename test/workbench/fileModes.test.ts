/**
 * The modes of the files the workbench writes are its own, whatever the umask, on every append
 * and rewrite, under Deno (the kernel's runtime, whose `appendFileSync` chmods a file to 0666 on
 * every append) and under Node: private files (the provenance journal, the result cache, the
 * local secret) 0600 in 0700 folders, shared ones (a lake's files, the folder lock) 0644 in 0755
 * folders, never writable by others. Each runtime runs test/workbench/support/fileModes.ts in a
 * process of its own, with a umask of 022 and of 000.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { denoPath } from "../../scripts/paths.mjs";
import process from "node:process";

const SCRIPT = "test/workbench/support/fileModes.ts";
// Node runs the script's TypeScript itself from 22.7 on, at a fraction of the cost of starting
// vite-node's transform server; an older Node goes through vite-node.
const [major, minor] = process.versions.node.split(".").map(Number);
const nodeRunsTypeScript = major > 22 || (major === 22 && minor >= 7);
const RUNTIMES = {
  deno: [denoPath(), "run", "-A", SCRIPT],
  node: nodeRunsTypeScript
    ? [process.execPath, "--experimental-transform-types", "--disable-warning=ExperimentalWarning", SCRIPT]
    : [process.execPath, "node_modules/vite-node/vite-node.mjs", SCRIPT],
} as const;
const CASES = [["deno", "022"], ["deno", "000"], ["node", "022"], ["node", "000"]] as const;

let scratch: string;
/** Each case's report, the four processes started together (each mostly waits on its start-up and files). */
const reports = new Map<string, Promise<Record<string, string | string[]>>>();
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "file-modes-"));
  for (const [runtime, umask] of CASES) {
    const pending = report(runtime, umask);
    pending.catch(() => {}); // awaited by its own describe, which reports the failure
    reports.set(`${runtime} ${umask}`, pending);
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the script under `runtime` with `umask` (a shell sets it, then becomes the runtime). */
function report(runtime: keyof typeof RUNTIMES, umask: string): Promise<Record<string, string | string[]>> {
  const dir = join(scratch, `${runtime}-${umask}`);
  mkdirSync(dir);
  const command = [...RUNTIMES[runtime], dir, inject("tinyMarketDir")].map((a) => `'${a}'`).join(" ");
  const env = {
    ...process.env,
    NO_COLOR: "1",
    XDG_CONFIG_HOME: join(dir, "config"),
    MARKETDATA_PROVENANCE_JOURNAL: join(dir, "journal.jsonl"),
  };
  return new Promise((resolve, reject) => {
    execFile("sh", ["-c", `umask ${umask} && exec ${command}`], { env, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      const line = stdout.split("\n").find((l) => l.startsWith("MODES "));
      if (error || !line) reject(new Error(`${runtime} (umask ${umask}) failed: ${error?.message ?? "no report"}\n${stderr}`));
      else resolve(JSON.parse(line.slice(6)));
    });
  });
}

describe.each(CASES)(
  "under %s with a umask of %s",
  (runtime, umask) => {
    let modes: Record<string, string | string[]>;
    beforeAll(async () => {
      modes = await reports.get(`${runtime} ${umask}`)!;
    }, 240_000);

    it("an appended file keeps its mode on every append (0644 shared, 0600 private); a file left 0666 is narrowed", () => {
      expect(modes.appendShared).toEqual(["644", "644", "644"]);
      expect(modes.appendPrivate).toEqual(["600", "600", "600"]);
      expect(modes.narrowed).toBe("600");
      expect(modes.journal).toBe("600"); // the provenance journal after five appends
    });

    it("a rewritten file keeps its mode (sync and async, shared and private); the lock 0644; the local secret 0600 in a 0700 folder", () => {
      expect(modes.rewriteShared).toEqual(["644", "644"]);
      expect(modes.rewritePrivate).toEqual(["600", "600"]);
      expect(modes.rewriteAsync).toEqual(["644", "644"]);
      expect(modes.lock).toBe("644");
      expect([modes.secret, modes.secretFolder]).toEqual(["600", "700"]);
    });

    it("a session's cache is 0600 in a 0700 folder, its lake and the lake's bookkeeping 0644 in 0755 folders", () => {
      const session = Object.entries(modes).filter(([path]) => path.startsWith("session/"));
      const cache = session.filter(([path]) => path.startsWith("session/cache/") && !path.endsWith("/"));
      const ofLake = (path: string) => path.startsWith("session/lake/") || path.startsWith("session/.lake.workbench/");
      const lake = session.filter(([path]) => ofLake(path) && !path.endsWith("/"));
      const lakeFolders = session.filter(([path]) => ofLake(path) && path.endsWith("/"));
      expect(cache.length).toBeGreaterThanOrEqual(6); // three calls' frames and their provenance
      expect(lake.map(([path]) => path)).toContain("session/.lake.workbench/manifest.json");
      expect(lakeFolders.map(([path]) => path)).toEqual(expect.arrayContaining(["session/lake/Ticker=MSFT/", "session/.lake.workbench/"]));
      expect(modes["session/cache/"]).toBe("700");
      expect(cache.filter(([, m]) => m !== "600")).toEqual([]);
      expect(lake.filter(([, m]) => m !== "644")).toEqual([]);
      expect(lakeFolders.filter(([, m]) => m !== "755")).toEqual([]);
    });
  },
);
