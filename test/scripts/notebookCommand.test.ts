/**
 * Running one's own notebook: `npm run notebook -- <path> [--out dir]` (the recipe runner,
 * named `notebook`) writes where it is told; and plain `jupyter nbconvert --execute` /
 * `jupyter execute` with the project's kernelspec work on Debian's nbclient 0.7.2 (which
 * crashes on the Deno kernel's `"transient": null` without the project's Jupyter config).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { cellText, makeNotebook } from "../../scripts/jupyter.mjs";
import { denoPath, jupyterEnv, jupyterPath, jupyterPython } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";

const dir = mkdtempSync(join(tmpdir(), "notebook-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plain = join(dir, "plain.ipynb");
writeFileSync(plain, JSON.stringify(makeNotebook(["1 + 1", "const n: number = 40;\nconsole.log(n + 2)"])));

describe("npm run notebook", () => {
  it("executes any notebook and writes it and its report into --out", async () => {
    const out = join(dir, "mine");
    const result = await run(denoPath(), ["run", "-A", "scripts/recipe.ts", plain, "--profile", "tiny", "--data", inject("tinyMarketDir"), "--out", out], {
      timeoutMs: 180_000,
      env: { ...process.env, npm_lifecycle_event: "notebook" },
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^notebook: running .*plain\.ipynb with its defaults/);
    expect(result.stdout).toContain(`executed notebook: ${join(out, "plain.ipynb")}`);
    const executed = JSON.parse(readFileSync(join(out, "plain.ipynb"), "utf8"));
    expect(executed.cells.map(cellText)).toEqual(["2", "42\n"]);
    expect(existsSync(join(out, "plain.html"))).toBe(true);
  });

  it("names itself in its usage line", async () => {
    const result = await run(denoPath(), ["run", "-A", "scripts/recipe.ts"], { env: { ...process.env, npm_lifecycle_event: "notebook" } });
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/^usage: npm run notebook -- <path\.ipynb> \[--param key=value\]\.\.\. \[--out <dir>\]/);
  });
});

describe("plain jupyter with the project's kernelspec and config", () => {
  const jupyter = jupyterPath()!;

  it("jupyter nbconvert --execute runs a Deno notebook", async () => {
    const result = await run(jupyter, ["nbconvert", "--execute", "--to", "notebook", "--output", join(dir, "converted.ipynb"), plain], { env: jupyterEnv(), timeoutMs: 120_000 });
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
    const result = await run(jupyter, ["nbconvert", "--execute", "--to", "notebook", "--output", join(dir, "crashed.ipynb"), plain], { env, timeoutMs: 120_000 });
    // jupyter's own interpreter, as `jupyter --version` would report it, without importing every Jupyter package.
    const version = (await run(jupyterPython()!, ["-c", "import nbclient; print(nbclient.__version__)"])).stdout.trim();
    if (/^0\.(\d|10\.[01])\b/.test(version)) expect(result.stderr).toContain("AttributeError: 'NoneType' object has no attribute 'get'");
    else expect(result.status).toBe(0); // a fixed nbclient needs no config
  });
});
