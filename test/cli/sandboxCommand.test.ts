/**
 * `market-workbench sandbox`'s arguments: `--home` is its own, and the profile's market in the
 * home is added as `--data` unless one is given; everything else goes to the sandbox's command.
 * The command itself runs from the installed package in test/package/install.test.ts.
 */
import { describe, expect, it } from "vitest";
import { sandboxArgs, takeOption } from "../../cli/sandboxCommand.ts";
import { SandboxSettingError } from "../../sandbox/launcher/errors.ts";

describe("market-workbench sandbox's arguments", () => {
  it("puts the profile's market of the home in --data", () => {
    expect(sandboxArgs(["--profile", "tiny", "--home", "/srv/teaching", "--port", "0"])).toEqual([
      "--profile",
      "tiny",
      "--port",
      "0",
      "--data",
      "/srv/teaching/data/tiny",
    ]);
    expect(sandboxArgs(["--home=/srv/teaching", "--profile=tiny"])).toEqual(["--profile=tiny", "--data", "/srv/teaching/data/tiny"]);
    expect(sandboxArgs(["--home", "/srv/teaching"])).toEqual(["--data", "/srv/teaching/data/demo"]);
  });

  it("keeps a --data given, and adds nothing to --help", () => {
    expect(sandboxArgs(["--data", "/markets/mine", "--home", "/srv"])).toEqual(["--data", "/markets/mine"]);
    expect(sandboxArgs(["--data=/markets/mine"])).toEqual(["--data=/markets/mine"]);
    expect(sandboxArgs(["--help"])).toEqual(["--help"]);
  });

  it("refuses an option left without its value", () => {
    expect(() => takeOption(["--port", "0", "--home"], "--home")).toThrow(SandboxSettingError);
    expect(() => takeOption(["--home"], "--home")).toThrow("--home needs a value");
  });
});
