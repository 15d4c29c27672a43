/**
 * The project's Deno kernelspec under a real Jupyter server: a kernel keeps answering when
 * clients connect again (a page reload) and when a second client connects (a second tab) and
 * leaves. Without scripts/jupyter-kernel/relay.py the Deno kernel leaves a new client's
 * requests unanswered, usually within the first cycles (docs/jupyter-kernel-reload.md).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labVenv } from "../../scripts/paths.mjs";
import { run } from "../../scripts/run.mjs";
import { labUnavailable, startJupyterServer } from "./support/jupyterServer.ts";

const CYCLES = 15;
const unavailable = await labUnavailable();
if (unavailable) console.warn(`Skipping the kernel reconnect test: JupyterLab cannot be installed.\n${unavailable}`);

describe.skipIf(unavailable)("the Deno kernel in a Jupyter server", () => {
  let server: Awaited<ReturnType<typeof startJupyterServer>>;
  beforeAll(async () => (server = await startJupyterServer()));
  afterAll(async () => server?.stop());

  it(`answers every cell over ${CYCLES} cycles of connect, second connection, disconnect`, async () => {
    const result = await run(join(labVenv, "bin", "python"),
      [join(import.meta.dirname, "support", "kernelReconnect.py"), server.url, server.token, String(CYCLES)],
      { timeoutMs: 100_000 });
    const lines = result.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const failed = lines.find((line) => line.error);
    const nudges = server.log().split("\n").filter((line) => /Nudge: attempt (10|20)\b|finish_nudge|Shell error/.test(line));
    expect(failed, `${JSON.stringify(failed)}\n${nudges.join("\n")}\n${result.stderr.slice(-2000)}`).toBeUndefined();
    expect(lines.map((line) => line.outputs)).toEqual(
      Array.from({ length: CYCLES }, (_, i) => [String(i * 2), String(i * 3), String(i * 5)]));
  }, 120_000);
});
