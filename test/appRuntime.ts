/**
 * Setup of the `app` project (vitest.config.ts): its files open the sandbox's app in-process,
 * whose state needs `node:sqlite`. Stop at once, saying how to run them, when the runtime
 * lacks it (Node 20), rather than fail every file with a missing-module error.
 */
if (!("Deno" in globalThis)) {
  throw new Error(
    `The 'app' project's tests run the sandbox in-process and need node:sqlite, which this runtime (Node ${process.version}) lacks: ` +
      "run them under Deno (node_modules/.bin/deno run -A node_modules/vitest/vitest.mjs run --project app), or run npm test",
  );
}
