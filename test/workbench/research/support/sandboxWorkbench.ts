/**
 * A workbench connected to a fresh sandbox on the test market for the tests of one file or
 * `describe` block: the sandbox's app opened in-process before them, closed after.
 *
 * @example
 * ```ts
 * const connected = sandboxWorkbench();
 * it("...", async () => { await connected.wb.data.eqLookupFiles(); });
 * ```
 */
import { afterAll, beforeAll } from "vitest";
import { connect, type Workbench } from "../../../../workbench/mod.ts";
import { type AppSandbox, openAppSandbox } from "../../../sandbox/service/support/appSandbox.ts";

export function sandboxWorkbench(): { readonly wb: Workbench } {
  let sb: AppSandbox | undefined;
  const connected = { wb: undefined as unknown as Workbench };
  beforeAll(async () => {
    sb = await openAppSandbox();
    connected.wb = await connect({ baseUrl: sb.baseUrl, fetch: sb.fetch, apiKey: "demo-full-access" });
  });
  afterAll(() => sb?.stop());
  return connected;
}
