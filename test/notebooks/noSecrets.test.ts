/**
 * No secret in a notebook's outputs, in the real Deno kernel: a notebook connects with a key made
 * for this run (and a restricted one, and a wrong one, and a base URL with a password), shows
 * `wb` as a cell's value, through `Deno.jupyter.display` and `show`, logs it every way a
 * researcher would (`console.log`, `String`, `JSON.stringify`, `Deno.inspect` with hidden
 * fields), caches and records a call, raises a 401, a 403, a 422, an unreachable URL with a
 * password and a refused non-http URL, shows each error as a value and logs its message,
 * inspection and stack, and ends on an uncaught error. Every byte of the executed notebook and
 * of its HTML report, the provenance journal and the cache folder is searched for the keys and
 * the password; the cells' outputs show that each error was really raised.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { executeNotebook, makeNotebook, NotebookError } from "../../scripts/jupyter.mjs";
import { adminJson } from "../sandbox/service/support/admin.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import process from "node:process";

interface Output {
  output_type: string;
  data?: Record<string, string | string[]>;
  text?: string | string[];
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

const repo = process.cwd();
const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("") : v ?? "");
const FULL_ACCESS_IDENTITY = 1;
const RESTRICTED_IDENTITY = 2;

let sb: TestSandbox;
let dir: string;
let secrets: Record<string, string>;
let notebookText: string;
let reportText: string;
let outputs: Output[][];

beforeAll(async () => {
  sb = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), "no-secrets-"));
  const key = (await adminJson<{ key: string }>(sb.statePath, "keys", "create", "--identity", String(FULL_ACCESS_IDENTITY))).key;
  const restricted = (await adminJson<{ key: string }>(sb.statePath, "keys", "create", "--identity", String(RESTRICTED_IDENTITY))).key;
  secrets = { key, restricted, wrong: `wrong-${randomBytes(8).toString("hex")}`, password: `pw-${randomBytes(8).toString("hex")}` };
  // The secrets reach the kernel through a file its first cell reads, as a key from a vault would:
  // they are in no cell's source, so any occurrence in the notebook is an output's.
  writeFileSync(join(dir, "secrets.json"), JSON.stringify(secrets));
  const port = new URL(sb.baseUrl).port;
  const cells = [
    `import { connect } from "${repo}/workbench/mod.ts";
import { show } from "${repo}/kernel-helpers/mod.ts";
Deno.env.set("MARKETDATA_PROVENANCE_JOURNAL", ${JSON.stringify(join(dir, "journal.jsonl"))});
const { key, restricted, wrong, password } = JSON.parse(Deno.readTextFileSync(${JSON.stringify(join(dir, "secrets.json"))}));`,
    `const wb = await connect({ baseUrl: ${JSON.stringify(sb.baseUrl)}, apiKey: key, cache: ${JSON.stringify(join(dir, "cache"))} });
wb`,
    `console.log(wb);
console.log(String(wb), \`\${wb}\`);
console.log(JSON.stringify(wb));
console.log(wb.transport, JSON.stringify(wb.transport));
console.log(Deno.inspect(wb, { depth: 20, showHidden: true, getters: true }));
console.log(Deno.inspect(wb.transport, { depth: 20, showHidden: true }));
console.info(wb.account, wb.data, wb.cache);`,
    `await wb.summary()`,
    `await Deno.jupyter.display(wb);
await show(wb);`,
    `const daily = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-20", end: "2023-11-22" });
daily.height`,
    `wb.provenance()`,
    `const e401 = await (await connect({ baseUrl: ${JSON.stringify(sb.baseUrl)}, apiKey: wrong })).account.identity().catch((e) => e);
console.log(e401.message); console.error(e401); console.log(Deno.inspect(e401, { depth: 10, showHidden: true })); console.log(e401.stack);
e401`,
    `const limited = await connect({ baseUrl: ${JSON.stringify(sb.baseUrl)}, apiKey: restricted });
const e403 = await limited.data.optGreeksDaily("SPY", { start: "2023-11-20", end: "2023-11-21" }).catch((e) => e);
console.log(e403.message); console.error(e403); console.log(Deno.inspect(e403, { depth: 10 }));
e403`,
    `const e422 = await wb.transport.get("/api/v1/data/us-equity/eq-daily-ohlc", new URLSearchParams({ "NoSuchColumn.eq": "1" })).catch((e) => e);
console.log(e422.message); console.error(e422); console.log(Deno.inspect(e422, { depth: 10 }));
e422`,
    `const withPassword = await connect({ baseUrl: \`http://alice:\${password}@127.0.0.1:1\`, apiKey: key, retries: 0 });
const unreachable = await withPassword.account.identity().catch((e) => e);
console.log(unreachable.message); console.error(unreachable); console.log(Deno.inspect(unreachable, { depth: 10 }), unreachable.url, unreachable.stack);
console.log(withPassword, String(withPassword), JSON.stringify(withPassword));
unreachable`,
    `const proxied = await connect({ baseUrl: \`http://alice:\${password}@127.0.0.1:${port}\`, apiKey: key });
await proxied.meta.status("eq-daily-ohlc");
console.log(proxied.transport);
proxied`,
    `const notHttp = await connect({ baseUrl: \`ftp://alice:\${password}@files.example.com\`, apiKey: key }).catch((e) => e);
console.warn(notHttp.message);
notHttp`,
    // Uncaught, as a mistake ends a cell: the kernel's own error output and traceback.
    `await withPassword.account.identity();`,
  ];
  const input = join(dir, "no-secrets.ipynb");
  writeFileSync(input, JSON.stringify(makeNotebook(cells)));
  const failure = await executeNotebook(input, join(dir, "out"), { timeoutSeconds: 180, report: true }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(failure instanceof NotebookError)) throw failure ?? new Error("The notebook ran to its end: its last cell should have raised");
  const failed = failure as NotebookError & { notebook: { cells: { outputs: Output[] }[] }; outputPath: string; htmlPath?: string };
  notebookText = readFileSync(failed.outputPath, "utf8");
  reportText = failed.htmlPath ? readFileSync(failed.htmlPath, "utf8") : "";
  outputs = failed.notebook.cells.map((cell: { outputs: Output[] }) => cell.outputs);
}, 400_000);

afterAll(async () => {
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The secrets found in `text`, by name (each also searched percent-encoded). */
function leaked(text: string): string[] {
  return Object.entries(secrets).filter(([, secret]) => text.includes(secret) || text.includes(encodeURIComponent(secret))).map(([name]) =>
    name
  );
}

/** Every file under `folder`, with its text. */
function filesUnder(folder: string): [string, string][] {
  return readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => {
    const path = join(e.parentPath, e.name);
    return [path, readFileSync(path, "latin1")];
  });
}

const text = (cell: number) => outputs[cell].map((o) => `${joined(o.text)}${joined(o.data?.["text/plain"])}${o.evalue ?? ""}`).join("\n");

it("every cell ran as written: the card, the logs, each error raised, the uncaught one last", () => {
  expect(outputs).toHaveLength(14);
  expect(outputs.slice(0, 13).flatMap((o) => o.filter((x) => x.output_type === "error"))).toEqual([]);
  expect(text(5)).toBe("3");
  expect(text(7)).toMatch(/InvalidApiKeyError/);
  expect(text(8)).toMatch(/NotEntitledError/);
  expect(text(9)).toMatch(/ValidationError[\s\S]*NoSuchColumn/);
  expect(text(10)).toMatch(/ServiceUnreachableError[\s\S]*http:\/\/127\.0\.0\.1:1\//);
  expect(text(11)).toMatch(/Workbench of Demo full access/);
  expect(text(12)).toMatch(/QueryError[\s\S]*ftp:\/\/files\.example\.com/);
  expect(outputs[13].find((o) => o.output_type === "error")?.ename).toBe("ServiceUnreachableError");
});

it("wb shows as a card of its service, identity, datasets and quota, as a value, through display and show", () => {
  for (const cell of [1, 3]) {
    const [shown] = outputs[cell];
    expect(shown.output_type).toBe("execute_result");
    const plain = joined(shown.data!["text/plain"]);
    expect(plain).toMatch(/^Workbench of Demo full access\n/);
    expect(plain).toContain(`service     ${sb.baseUrl}`);
    expect(plain).toMatch(/identity\s+Demo full access \(id 1\)/);
    expect(plain).toMatch(/datasets\s+\d+ readable: eq-/);
    expect(plain).toMatch(/this month\s+[\d,]+ of [\d,]+ requests; .* returned/);
    expect(joined(shown.data!["text/html"])).toContain("Demo full access");
  }
  expect(outputs[4].filter((o) => o.output_type === "display_data").map((o) => joined(o.data?.["text/plain"]).split("\n")[0])).toEqual([
    "Workbench of Demo full access",
    "Workbench of Demo full access",
  ]);
  expect(text(2)).toContain(`Workbench { service: "${sb.baseUrl}"`);
});

it("no key, wrong key or password in any output, the HTML report, the provenance journal or the cache", () => {
  expect(leaked(notebookText)).toEqual([]);
  expect(reportText.length).toBeGreaterThan(1000);
  expect(leaked(reportText)).toEqual([]);
  const journal = readFileSync(join(dir, "journal.jsonl"), "utf8");
  expect(journal).toContain('"dataset":"eq-daily-ohlc"');
  expect(leaked(journal)).toEqual([]);
  const cached = filesUnder(join(dir, "cache"));
  expect(cached.length).toBeGreaterThanOrEqual(2); // the frame and its provenance
  for (const [path, content] of cached) expect(leaked(content), path).toEqual([]);
});

it("the journal and the cache the kernel wrote are private (0600)", () => {
  expect((statSync(join(dir, "journal.jsonl")).mode & 0o777).toString(8)).toBe("600");
  for (const [path] of filesUnder(join(dir, "cache"))) expect((statSync(path).mode & 0o777).toString(8), path).toBe("600");
});
