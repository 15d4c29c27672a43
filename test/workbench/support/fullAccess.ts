/**
 * A test file's sandbox and full-access workbench: the sandbox's app opened in-process before
 * its tests (no port, no child process), closed after.
 *
 * @example
 * ```ts
 * const local = withFullAccess();
 * it("fetches", async () => expect((await local.wb.data.eqDailyOhlc()).height).toBeGreaterThan(0));
 * ```
 */
import { afterAll, beforeAll } from "vitest";
import { connect, type Workbench } from "../../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../../sandbox/service/support/appSandbox.ts";

export function withFullAccess(): { sb: AppSandbox; wb: Workbench } {
  const local = {} as { sb: AppSandbox; wb: Workbench };
  beforeAll(async () => {
    local.sb = await openAppSandbox();
    local.wb = await connect({ baseUrl: local.sb.baseUrl, fetch: local.sb.fetch, apiKey: "demo-full-access" });
  });
  afterAll(async () => await local.sb?.stop());
  return local;
}
