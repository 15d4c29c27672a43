/**
 * A workbench connected to a fresh sandbox on the test market for the tests of one file or
 * `describe` block: started before them, stopped after.
 *
 * @example
 * ```ts
 * const connected = sandboxWorkbench();
 * it("...", async () => { await connected.wb.data.eqLookupFiles(); });
 * ```
 */
import { afterAll, beforeAll } from "vitest";
import { connect, type Workbench } from "../../../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../../../sandbox/service/support/sandbox.ts";

export function sandboxWorkbench(): { readonly wb: Workbench } {
  let sb: TestSandbox | undefined;
  const connected = { wb: undefined as unknown as Workbench };
  beforeAll(async () => {
    sb = await startSandbox();
    connected.wb = await connect({ baseUrl: sb.baseUrl, apiKey: "demo-full-access" });
  });
  afterAll(() => sb?.stop());
  return connected;
}
