/**
 * A test file's sandbox and full-access workbench: started before its tests, stopped after.
 *
 * @example
 * ```ts
 * const local = withFullAccess();
 * it("fetches", async () => expect((await local.wb.data.eqDailyOhlc()).height).toBeGreaterThan(0));
 * ```
 */
import { afterAll, beforeAll } from "vitest";
import { connect, type Workbench } from "../../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../../sandbox/service/support/sandbox.ts";

export function withFullAccess(): { sb: TestSandbox; wb: Workbench } {
  const local = {} as { sb: TestSandbox; wb: Workbench };
  beforeAll(async () => {
    local.sb = await startSandbox();
    local.wb = await connect({ baseUrl: local.sb.baseUrl, apiKey: "demo-full-access" });
  });
  afterAll(async () => await local.sb?.stop());
  return local;
}
