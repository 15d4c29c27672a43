/**
 * Plain `jupyter nbconvert --execute` / `jupyter execute` with the project's kernelspec work on
 * Debian's nbclient 0.7.2 (which crashes on the Deno kernel's `"transient": null` without the
 * project's Jupyter config). Running one's own notebook with `npm run notebook` is tested in
 * recipe.test.ts, on that file's sandbox.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cellText, makeNotebook } from "../../scripts/jupyter.mjs";
import { jupyterEnv, jupyterPath, jupyterPython } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";

const dir = mkdtempSync(join(tmpdir(), "notebook-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plain = join(dir, "plain.ipynb");
writeFileSync(plain, JSON.stringify(makeNotebook(["1 + 1", "const n: number = 40;\nconsole.log(n + 2)"])));

describe("plain jupyter with the project's kernelspec and config", () => {
  const jupyter = jupyterPath()!;

  it("jupyter nbconvert --execute runs a Deno notebook", async () => {
    const result = await run(jupyter, ["nbconvert", "--execute", "--to", "notebook", "--output", join(dir, "converted.ipynb"), plain], {
      env: jupyterEnv(),
      timeoutMs: 120_000,
    });
    expect(result.stderr).not.toContain("AttributeError");
    expect(result.status).toBe(0);
    const executed = JSON.parse(readFileSync(join(dir, "converted.ipynb"), "utf8"));
    expect(executed.cells.map(cellText)).toEqual(["2", "42\n"]);
  });

  it("jupyter execute runs it too", async () => {
    const result = await run(jupyter, ["execute", plain], { env: jupyterEnv(), timeoutMs: 120_000, cwd: dir });
    expect(result.stderr).not.toContain("Traceback");
    expect(result.status).toBe(0);
  });

  it("without the project's config nbclient 0.7.2 crashes (the reason the config exists)", async () => {
    const env = { ...jupyterEnv(), JUPYTER_CONFIG_PATH: join(dir, "no-config") };
    const result = await run(jupyter, ["nbconvert", "--execute", "--to", "notebook", "--output", join(dir, "crashed.ipynb"), plain], {
      env,
      timeoutMs: 120_000,
    });
    // jupyter's own interpreter, as `jupyter --version` would report it, without importing every Jupyter package.
    const version = (await run(jupyterPython()!, ["-c", "import nbclient; print(nbclient.__version__)"])).stdout.trim();
    if (/^0\.(\d|10\.[01])\b/.test(version)) expect(result.stderr).toContain("AttributeError: 'NoneType' object has no attribute 'get'");
    else expect(result.status).toBe(0); // a fixed nbclient needs no config
  });
});
