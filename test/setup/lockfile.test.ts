import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import process from "node:process";

const repo = join(import.meta.dirname, "..", "..");
const scratch = mkdtempSync(join(tmpdir(), "lockfile-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("package-lock.json", () => {
  it("is in sync with package.json, so `npm ci` takes it as it is on a fresh clone", () => {
    for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(repo, file), join(scratch, file));
    const ci = spawnSync("npm", ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: scratch, encoding: "utf8" });
    expect(ci.stderr).not.toMatch(/Missing: |in sync/);
    expect(ci.status).toBe(0);
  });

  it("records every platform binary npm would leave out (lockPlatforms has nothing to add)", () => {
    copyFileSync(join(repo, "package-lock.json"), join(scratch, "package-lock.json"));
    const out = execFileSync(process.execPath, [join(repo, "scripts/lockPlatforms.mjs")], {
      encoding: "utf8",
      env: { ...process.env, LOCK_PLATFORMS_FILE: join(scratch, "package-lock.json") },
    });
    expect(out).toContain("nothing missing");
  });
});
