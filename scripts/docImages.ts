/**
 * `deno run -A scripts/docImages.ts [--only <name>]...`: re-renders the pictures of the docs
 * (docs/images/*.png) from exactly the code the docs show, so they stay true when a chart
 * changes. Each picture is the `![...](…/images/<name>.png)` of docs/notebook-helpers.md and
 * README.md, drawn by the ```ts block just before it. Those blocks become the cells of one
 * notebook (after a first cell that imports the helpers and connects to the sandbox, as a
 * notebook's first cell does; a block's own import of notebook.ts is pointed at the package
 * name), which the notebook runner executes in the Deno kernel against the demo market (seed
 * 42, in `data/demo`); each cell's chart output is then drawn by headless Chromium at the
 * notebook's 976 px and cut to the chart, title and notes included. The executed notebook and
 * the page stay in out/doc-images/ for a person to look at.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { makeNotebook } from "./jupyter.mjs";
import { outDir, repoRoot, which } from "./paths.mjs";
import { run } from "./run.mjs";

/** The docs whose pictures are drawn, with the folder their image paths are relative to. */
const DOCS = [join(repoRoot, "docs", "notebook-helpers.md"), join(repoRoot, "README.md")];

/** What every notebook's first cell holds: the helpers, Polars and a workbench on the sandbox. */
const SETUP = [
  'import { connect, sandbox, candlestickChart, heatmapChart, intradayProfileChart, plot, Plot, smileChart, termStructureChart, timeSeriesChart, withMinuteOfDay, withSession, frameDates } from "market-workbench/notebook";',
  'import pl from "nodejs-polars";',
  "const local = await sandbox();",
  "const wb = await connect({ baseUrl: local.baseUrl, apiKey: local.keys.fullAccess });",
].join("\n");

interface Picture {
  /** The image file, e.g. `timeSeriesChart.png`. */
  name: string;
  /** The code that draws it. */
  code: string;
}

/** Each picture of a markdown file and the ```ts block just before it. */
function picturesOf(markdown: string): Picture[] {
  const pictures: Picture[] = [];
  let block: string | undefined;
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith("```ts")) {
      const end = lines.indexOf("```", i + 1);
      block = lines.slice(i + 1, end).join("\n");
      i = end;
      continue;
    }
    const image = /!\[[^\]]*\]\((?:docs\/)?images\/([\w.-]+\.png)\)/.exec(lines[i]);
    if (image && block !== undefined) {
      pictures.push({ name: image[1], code: block });
      block = undefined;
    }
  }
  return pictures;
}

/** A block as a cell after the setup cell: its own first-cell lines (imports, sandbox, connect) dropped. */
function asCell(code: string): string {
  return code.split("\n").filter((line) =>
    !/^import .* from "(\.\.\/notebook\.ts|market-workbench\/notebook|nodejs-polars)";/.test(line) &&
    !/^const (local|wb) = await (sandbox|connect)\(/.test(line)
  ).join("\n");
}

const { values } = parseArgs({ args: process.argv.slice(2), options: { only: { type: "string", multiple: true } } });
const pictures = DOCS.flatMap((doc) => picturesOf(readFileSync(doc, "utf8"))).filter((p) =>
  !values.only || values.only.includes(p.name.replace(/\.png$/, ""))
);
if (pictures.length === 0) throw new Error(`No picture to draw${values.only ? ` named ${values.only.join(", ")}` : ""}`);

const dir = join(outDir, "doc-images");
mkdirSync(dir, { recursive: true });
const notebook = makeNotebook([SETUP, ...pictures.map((p) => asCell(p.code))]);
pictures.forEach((p, i) => (notebook.cells[i + 1].metadata = { "doc-image": p.name }));
const path = join(dir, "doc-images.ipynb");
writeFileSync(path, JSON.stringify(notebook, null, 1));
console.log(`doc images: running ${pictures.length} cell(s) in the Deno kernel against the demo market`);
const ran = await run(process.execPath, ["run", "-A", join(repoRoot, "scripts", "recipe.ts"), path, "--out", dir], {
  cwd: repoRoot,
  env: { ...process.env, NO_COLOR: "1" },
});
if (ran.status !== 0) throw new Error(`The notebook failed (${path}):\n${ran.stdout}\n${ran.stderr}`);

// Each cell's chart, as JupyterLab shows it: its HTML output in a 976 px wide notebook column.
const executed = JSON.parse(readFileSync(path, "utf8")) as {
  cells: { metadata: Record<string, string>; outputs: { data?: Record<string, string | string[]> }[] }[];
};
const blocks = executed.cells.filter((c) => c.metadata["doc-image"]).map((c) => {
  const html = c.outputs.map((o) => o.data?.["text/html"]).find((h) => h !== undefined && [h].flat().join("").includes("wb-chart"));
  if (html === undefined) throw new Error(`The cell of ${c.metadata["doc-image"]} shows no chart`);
  return `<div class="case" data-name="${c.metadata["doc-image"]}" style="width:960px;padding:8px">${[html].flat().join("")}</div>`;
});
const page = join(dir, "doc-images.html");
writeFileSync(
  page,
  `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff;width:976px">${
    blocks.join("")
  }</body></html>`,
);
const browser = await chromium.launch({
  executablePath: which("chromium") ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--hide-scrollbars"],
});
try {
  const tab = await browser.newPage({ viewport: { width: 976, height: 1000 } });
  await tab.goto(`file://${page}`, { waitUntil: "load" });
  for (const element of await tab.$$(".case")) {
    const name = await element.getAttribute("data-name");
    await element.screenshot({ path: join(repoRoot, "docs", "images", name!) });
    console.log(`docs/images/${name}`);
  }
} finally {
  await browser.close();
}
