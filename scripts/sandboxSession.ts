/**
 * The sandbox a notebook run talks to. On the default demo market it goes through the
 * workbench's own `sandbox()`, so notebooks that call `sandbox()` reuse the very same process;
 * it is stopped afterwards only when this run started it. On another market (`--data`,
 * `--profile tiny`) it is a private sandbox with its own state file, always stopped; notebooks
 * find it through MARKETDATA_BASE_URL and MARKETDATA_API_KEY (`connect()` without options)
 * and MARKETDATA_SANDBOX_URL (`sandbox()` without options). With `baseUrl` it is a sandbox
 * someone else runs (several runs sharing one, as the tests do), found the same way and left
 * running.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { DEMO_KEYS } from "../contract/demoKeys.ts";
// The launcher alone: the whole public module would load Polars and the client for nothing.
import { sandbox } from "../sandbox/launcher/local.ts";
import { cacheDir } from "./paths.mjs";

export interface SandboxSession {
  baseUrl: string;
  /** Whether this run started the sandbox (and so stops it). */
  started: boolean;
  /** Environment for the kernel: MARKETDATA_BASE_URL, MARKETDATA_API_KEY, MARKETDATA_PROVENANCE=1 (and MARKETDATA_SANDBOX_URL for a private sandbox). */
  env: Record<string, string>;
  /** Stops the sandbox if this run started it, and waits until it is gone. */
  close: () => Promise<void>;
}

export interface SessionOptions {
  profile?: "demo" | "tiny";
  /** Market folder; when given, the sandbox is private to this run. */
  dataDir?: string;
  /** A running sandbox to use (with its demo keys) instead of starting one; not with `profile` or `dataDir`. */
  baseUrl?: string;
}

/** `openSandbox` was given a `baseUrl` where no sandbox answers. */
export class NoSandboxError extends Error {
  /** @param baseUrl the address given */
  constructor(readonly baseUrl: string) {
    super(
      `no sandbox answers at '${baseUrl}' (GET /openapi.json failed): start one with \`npm run sandbox\`, or leave the address out to have one started`,
    );
    this.name = "NoSandboxError";
  }
}

/**
 * Starts (or reuses) the sandbox for a notebook run.
 *
 * @example
 * const session = await openSandbox();
 * try { ... } finally { await session.close(); }
 */
export async function openSandbox(options: SessionOptions = {}): Promise<SandboxSession> {
  if (options.baseUrl !== undefined) return runningSandbox(options.baseUrl);
  const profile = options.profile ?? "demo";
  const shared = profile === "demo" && options.dataDir === undefined;
  const scratch = shared ? undefined : mkdtempSync(join(tmpdir(), "notebook-sandbox-"));
  const before = shared ? recordedPid(profile) : undefined;
  // Extra arguments make `sandbox()` start a fresh process and record nothing.
  const local = await sandbox({
    profile,
    dataDir: options.dataDir,
    args: scratch ? ["--state", join(scratch, "state.sqlite")] : undefined,
  });
  const started = !shared || local.pid !== before;
  return {
    baseUrl: local.baseUrl,
    started,
    // A private sandbox is also what the notebooks' own `sandbox()` calls return.
    env: kernelEnv(local.baseUrl, local.keys.fullAccess, !shared),
    close: async () => {
      if (started && local.pid !== undefined) {
        local.stop();
        await exited(local.pid);
      }
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * What the kernel is told: where the sandbox is and its key (`connect()` without options), with
 * recording on; `notebooksToo` also makes the notebooks' own `sandbox()` return it (a sandbox
 * other than the shared demo one).
 */
function kernelEnv(baseUrl: string, apiKey: string, notebooksToo: boolean): Record<string, string> {
  return {
    MARKETDATA_BASE_URL: baseUrl,
    MARKETDATA_API_KEY: apiKey,
    MARKETDATA_PROVENANCE: "1",
    ...(notebooksToo ? { MARKETDATA_SANDBOX_URL: baseUrl } : {}),
  };
}

/** The sandbox at `baseUrl`, which this run neither starts nor stops. */
async function runningSandbox(baseUrl: string): Promise<SandboxSession> {
  const answer = await fetch(new URL("openapi.json", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`), {
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined);
  await answer?.body?.cancel();
  if (!answer?.ok) throw new NoSandboxError(baseUrl);
  return {
    baseUrl,
    started: false,
    env: kernelEnv(baseUrl, DEMO_KEYS.fullAccess, true),
    close: async () => {},
  };
}

/** Pid in the record `sandbox()` keeps of the sandbox it started last for this profile. */
function recordedPid(profile: string): number | undefined {
  const record = join(cacheDir, `sandbox-${profile}.json`);
  if (!existsSync(record)) return undefined;
  try {
    return (JSON.parse(readFileSync(record, "utf8")) as { pid?: number }).pid;
  } catch {
    return undefined;
  }
}

async function exited(pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
