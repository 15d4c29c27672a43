/**
 * The sandbox's state (hashed API keys, access rules, quotas, usage) is private to the user
 * who runs it: the database and its `-wal` and `-shm` files are 0600 and the folders the
 * sandbox makes for it 0700, whatever the umask (the sandbox is started with umask 0 here, so
 * nothing but the sandbox itself can make them private); a state file left 0644 by an earlier
 * version is made 0600 when the sandbox opens it; a folder that already existed keeps its mode.
 * A real sandbox process (Deno, node:sqlite).
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSandbox, type TestSandbox } from "./support/sandbox.ts";
import process from "node:process";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** A sandbox started with umask 0: files and folders get exactly the modes their creator asks for. */
async function startWithoutUmask(statePath: string): Promise<TestSandbox> {
  const umask = process.umask(0);
  try {
    return await startSandbox({ statePath });
  } finally {
    process.umask(umask);
  }
}

describe("the sandbox's state files", () => {
  const scratch = mkdtempSync(join(tmpdir(), "state-privacy-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("are 0600 in folders the sandbox makes 0700, and an existing folder keeps its mode", async () => {
    chmodSync(scratch, 0o755);
    const statePath = join(scratch, "made", "for-state", "state.sqlite");
    const sb = await startWithoutUmask(statePath);
    try {
      // A counted request: the database is written through its WAL while it runs.
      expect((await sb.get("/api/v1/account/my", "demo-full-access")).status).toBe(200);
      for (const file of [statePath, `${statePath}-wal`, `${statePath}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(mode(file), file).toBe("600");
      }
      expect(mode(join(scratch, "made"))).toBe("700");
      expect(mode(join(scratch, "made", "for-state"))).toBe("700");
      expect(mode(scratch)).toBe("755");
    } finally {
      await sb.stop();
    }
  });

  it("are made 0600 when an earlier run left them readable by others", async () => {
    // The state file the run above made, left readable as an earlier version left it.
    const statePath = join(scratch, "made", "for-state", "state.sqlite");
    expect(existsSync(statePath), "the state file of the run above").toBe(true);
    chmodSync(statePath, 0o644);
    expect(mode(statePath)).toBe("644");
    const sb = await startWithoutUmask(statePath);
    try {
      expect((await sb.get("/api/v1/account/my", "demo-full-access")).status).toBe(200);
      for (const file of [statePath, `${statePath}-wal`, `${statePath}-shm`]) expect(mode(file), file).toBe("600");
    } finally {
      await sb.stop();
    }
  });
});
