import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { errorOutputs, executeNotebook, makeNotebook, NotebookError, notebookText } from "../../scripts/jupyter.mjs";

describe("the Deno Jupyter kernel", () => {
  const dir = mkdtempSync(join(tmpdir(), "kernel-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("runs a notebook that imports nodejs-polars and prints a frame's shape", async () => {
    const input = join(dir, "polars-shape.ipynb");
    const cells = [
      'import pl from "nodejs-polars";',
      'const df = pl.DataFrame({ ticker: ["AAPL", "MSFT", "SPY"], close: [1, 2, 3] });\n' +
      "console.log(JSON.stringify(df.shape));",
      "df.height * 10",
    ];
    writeFileSync(input, JSON.stringify(makeNotebook(cells)));

    const { outputPath, notebook } = await executeNotebook(input, join(dir, "out"), {
      timeoutSeconds: 120,
    });

    expect(errorOutputs(notebook)).toEqual([]);
    expect(notebookText(notebook).map((text: string) => text.trim())).toEqual([
      "",
      '{"height":3,"width":2}',
      "30",
    ]);
    expect(JSON.parse(readFileSync(outputPath, "utf8"))).toEqual(notebook);
  });

  it("fails with the cell's error when a cell throws, and leaves the copy executed up to that cell", async () => {
    const input = join(dir, "throws.ipynb");
    writeFileSync(
      input,
      JSON.stringify(makeNotebook(['console.log("before");', 'throw new Error("boom in cell");', 'console.log("after");'])),
    );

    const error = await executeNotebook(input, join(dir, "out"), { timeoutSeconds: 60 }).then(
      () => expect.fail("the notebook ran"),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotebookError);
    expect((error as Error).message).toMatch(/boom in cell/);
    const written = JSON.parse(readFileSync((error as NotebookError).outputPath, "utf8"));
    expect(written).toEqual((error as NotebookError).notebook);
    expect(notebookText(written).map((text: string) => text.trim())).toEqual(["before", "Error: boom in cell", ""]);
    expect(written.cells.map((c: { execution_count: number | null }) => c.execution_count)).toEqual([1, 2, null]);
  });
});
