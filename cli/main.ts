#!/usr/bin/env node
/**
 * The package's command, `market-workbench` (`npx market-workbench <command>` in a project that
 * installed it): `sandbox` runs the local sandbox, `kernel` installs the project's Deno kernel
 * into Jupyter. Runs under Node (20 and later) or Deno.
 */
import process from "node:process";
import { DenoNotFoundError, SandboxSettingError } from "../sandbox/launcher/mod.ts";
import { installKernel, KERNEL_USAGE, KernelInstallError } from "./kernel.ts";
import { packageRoot } from "./packageRoot.ts";
import { runSandbox } from "./sandboxCommand.ts";

const USAGE = `usage: market-workbench <command> [options]

  sandbox [--home DIR] [--profile demo|tiny] [--port N] [...]
      Runs the local sandbox of the Datasets Service in the foreground (Ctrl-C stops it). The
      market is generated on the first start into DIR/data/<profile> (default: MARKET_WORKBENCH_HOME,
      else ~/.cache/market-workbench or your platform's cache folder). \`sandbox --help\` lists
      the sandbox's options.
  kernel [--name NAME] [--user | --sys-prefix | --prefix DIR]
      Installs the project's Deno kernel into Jupyter (\`kernel --help\` for more).
  --version
      Prints this package's version.`;

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case "sandbox":
      return await runSandbox(rest);
    case "kernel": {
      if (rest.includes("--help")) {
        console.log(KERNEL_USAGE);
        return 0;
      }
      const installed = installKernel(rest);
      console.log(
        `${installed.message}\nChoose the kernel "${installed.name}" in JupyterLab, or run a notebook with it: jupyter execute --kernel_name=${installed.name} my.ipynb`,
      );
      return 0;
    }
    case "--version":
      console.log(packageRoot().version);
      return 0;
    case undefined:
    case "help":
    case "--help":
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      console.error(`market-workbench: no command '${command}'\n\n${USAGE}`);
      return 2;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A known failure says what to do in its message; anything else keeps its stack.
  const known = error instanceof SandboxSettingError || error instanceof DenoNotFoundError || error instanceof KernelInstallError ||
    (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
  console.error(`market-workbench: ${known ? (error as Error).message : (error as Error).stack}`);
  process.exitCode = 2;
}
