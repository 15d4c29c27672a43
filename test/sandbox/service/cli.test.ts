/**
 * The sandbox command refuses a bad setting before it starts, with a message naming the
 * option and the value (and never starts generating a market for a folder it cannot use).
 */
import { describe, expect, inject, it } from "vitest";
import { denoPath } from "../../../scripts/paths.mjs";
import { run } from "../../../scripts/run.mjs";

const refusals: [string[], string][] = [
  [["--port", "http"], "--port 'http' is not a port number"],
  [["--data", ""], "--data '' names no folder"],
  [["--unentitled-status", "500"], "--unentitled-status '500' must be 403 or 404"],
  [["--query-budget-ms", "0"], "--query-budget-ms '0' must be a positive number of milliseconds"],
  [["--faults", "1,0.9,0.9,0,0"], "--faults '1,0.9,0.9,0,0' must be seed,rate503,rate504,rate429,rateDrop"],
  [["--trusted-proxy", "10.0.0.300/8"], "--trusted-proxy '10.0.0.300/8' is not a CIDR block"],
  [["--latency", "70000"], "--latency '70000' is not a number of milliseconds from 0 to 60000"],
  [["--bandwidth", "0"], "--bandwidth '0' is not a positive number of megabytes a second"],
  [["--line", "100mbit"], "--line '100mbit' is not a positive number of megabytes a second (12.5 is 100 Mbit/s)"],
];

describe("sandbox CLI refusals", () => {
  for (const [args, message] of refusals) {
    it(`${args.join(" ") || "(empty)"}: ${message}`, async () => {
      const result = await run(denoPath(), [
        "run",
        "-A",
        "sandbox/service/cli.ts",
        "--port",
        "0",
        "--data",
        inject("tinyMarketDir"),
        ...args,
      ], { timeoutMs: 60_000 });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain("generating profile");
      expect(result.stdout).not.toContain("ready");
    });
  }
});
