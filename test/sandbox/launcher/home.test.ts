/**
 * Where the sandbox keeps its markets, records and logs: the `home` option, else
 * MARKET_WORKBENCH_HOME, else (run from the sources, as here) the checkout's data/ and .cache/.
 * The installed package's per-user cache folder is checked by test/package/install.test.ts.
 */
import { join, resolve } from "node:path";
import process from "node:process";
import { afterEach, describe, expect, it } from "vitest";
import { SandboxSettingError } from "../../../sandbox/launcher/errors.ts";
import { CHECKOUT_ROOT, HOME_VARIABLE, sandboxHome } from "../../../sandbox/launcher/home.ts";

const saved = process.env[HOME_VARIABLE];
afterEach(() => {
  if (saved === undefined) delete process.env[HOME_VARIABLE];
  else process.env[HOME_VARIABLE] = saved;
});

describe("sandboxHome", () => {
  it("is the checkout's data/ and .cache/ when run from the sources with nothing chosen", () => {
    delete process.env[HOME_VARIABLE];
    expect(sandboxHome()).toEqual({ markets: join(CHECKOUT_ROOT, "data"), runs: join(CHECKOUT_ROOT, ".cache") });
    expect(CHECKOUT_ROOT).toBe(resolve(import.meta.dirname, "..", "..", ".."));
  });

  it("takes MARKET_WORKBENCH_HOME, and the option before it, resolved to an absolute folder", () => {
    process.env[HOME_VARIABLE] = "/srv/teaching";
    expect(sandboxHome()).toEqual({ markets: "/srv/teaching/data", runs: "/srv/teaching" });
    expect(sandboxHome("relative/home")).toEqual({ markets: resolve("relative/home", "data"), runs: resolve("relative/home") });
  });

  it("refuses a blank folder, naming where it came from", () => {
    expect(() => sandboxHome(" ")).toThrow(SandboxSettingError);
    expect(() => sandboxHome(" ")).toThrow("sandbox({ home }) is ' ', which names no folder");
    process.env[HOME_VARIABLE] = "";
    expect(() => sandboxHome()).toThrow(`${HOME_VARIABLE} is '', which names no folder`);
  });
});
