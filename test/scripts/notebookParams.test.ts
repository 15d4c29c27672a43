import { describe, expect, it } from "vitest";
import { declarations, INJECTED_TAG, injectParameters, ParameterError, parseParamArgs } from "../../scripts/notebookParams.ts";
import { figureCount, svgWithMarks } from "../../scripts/report.ts";

const PARAMETERS = [
  "// Defaults; `npm run recipe -- <name> --param key=value` overrides them.\n",
  'const ticker = "AAPL"; // the underlying\n',
  "let minutes: number = 30;\n",
  "const tickers = [\n",
  "  'SPY',\n",
  '  "QQQ", // both ETFs\n',
  "];\n",
  "const strikes = [100, 105];\n",
  "const noFinra = false; const title = 'It\\'s \"quoted\"';\n",
  'const span = { from: "2023-11-01", to: "2023-11-30" };\n',
];

function recipe(source: string[] = PARAMETERS) {
  return {
    cells: [
      { cell_type: "markdown", id: "intro", metadata: {}, source: ["# A recipe\n"] },
      { cell_type: "code", id: "params", execution_count: null, metadata: { tags: ["parameters"] }, outputs: [], source },
      { cell_type: "code", id: "work", execution_count: null, metadata: {}, outputs: [], source: ["ticker"] },
    ],
    metadata: { kernelspec: { name: "deno" } } as Record<string, unknown>,
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const sourceOf = (cell: { source: string | string[] }) => ([] as string[]).concat(cell.source).join("");

describe("the parameters cell", () => {
  it("declares each parameter with its default's value and type", () => {
    const found = declarations(PARAMETERS.join(""));
    expect(found.map((d) => [d.name, d.kind, d.value])).toEqual([
      ["ticker", "string", "AAPL"],
      ["minutes", "number", 30],
      ["tickers", "array", ["SPY", "QQQ"]],
      ["strikes", "array", [100, 105]],
      ["noFinra", "boolean", false],
      ["title", "string", 'It\'s "quoted"'],
      ["span", "json", { from: "2023-11-01", to: "2023-11-30" }],
    ]);
  });

  it("ignores declarations inside comments and statements that are not declarations", () => {
    const found = declarations('/* const hidden = 1; */\nconsole.log("const x = 2");\n// let y = 3\nconst shown = 4');
    expect(found.map((d) => d.name)).toEqual(["shown"]);
  });
});

describe("injecting parameters", () => {
  it("adds a tagged cell right after the parameters cell that assigns the given values", () => {
    const run = injectParameters(recipe(), { ticker: "MSFT", minutes: "45" }, "recipe demo");

    expect(run.cells.map((c) => c.id)).toEqual(["intro", "params", INJECTED_TAG, "work"]);
    expect(run.cells[2].metadata.tags).toEqual([INJECTED_TAG]);
    expect(sourceOf(run.cells[2]).split("\n").slice(1)).toEqual(['ticker = "MSFT";', "minutes = 45;", "void 0;"]);
    expect(run.metadata.workbench).toEqual({ parameters: { ticker: "MSFT", minutes: 45 } });
  });

  it("turns the overridden const declarations into let, leaving the others alone", () => {
    const run = injectParameters(recipe(), { ticker: "MSFT", noFinra: "true" }, "recipe demo");
    const params = sourceOf(run.cells[1]);

    expect(params).toContain('let ticker = "AAPL"; // the underlying\n');
    expect(params).toContain("let noFinra = false; const title = ");
    expect(params).toContain("const tickers = [");
    expect(params.replace(/\blet ticker\b|\blet noFinra\b/g, "")).toBe(
      PARAMETERS.join("").replace(/\bconst ticker\b|\bconst noFinra\b/g, ""),
    );
  });

  it("types each value by its default", () => {
    const run = injectParameters(recipe(), {
      ticker: "45",
      minutes: "1e2",
      tickers: "AAPL, MSFT",
      strikes: "[110,115.5]",
      noFinra: "true",
      span: "{ from: '2024-01-02' }",
    }, "recipe demo");

    expect(sourceOf(run.cells[2]).split("\n").slice(1, -1)).toEqual([
      'ticker = "45";',
      "minutes = 100;",
      'tickers = ["AAPL","MSFT"];',
      "strikes = [110,115.5];",
      "noFinra = true;",
      'span = {"from":"2024-01-02"};',
    ]);
  });

  it("replaces a cell injected by an earlier run instead of adding a second one", () => {
    const once = injectParameters(recipe(), { ticker: "MSFT" });
    const twice = injectParameters(once, { minutes: "5" });

    expect(twice.cells.filter((c) => c.metadata.tags?.includes(INJECTED_TAG))).toHaveLength(1);
    expect(sourceOf(twice.cells[2])).toContain("minutes = 5;");
    expect(sourceOf(twice.cells[2])).not.toContain("ticker");
  });

  it("leaves the notebook as it is when no parameter is given", () => {
    expect(injectParameters(recipe(), {})).toEqual(recipe());
  });

  it("names an unknown parameter and the ones the recipe declares", () => {
    expect(() => injectParameters(recipe(), { tickr: "MSFT" }, "recipe intraday-spread")).toThrow(
      new ParameterError(
        "Unknown parameter 'tickr' for recipe intraday-spread; its parameters cell declares: " +
          "ticker, minutes, tickers, strikes, noFinra, title, span",
      ),
    );
  });

  it("refuses a value that does not fit its default's type, naming both", () => {
    expect(() => injectParameters(recipe(), { minutes: "half an hour" })).toThrow(
      "Parameter 'minutes' expects a number (its default is 30); got 'half an hour'",
    );
    expect(() => injectParameters(recipe(), { noFinra: "yes" })).toThrow("expects true or false");
    expect(() => injectParameters(recipe(), { strikes: "100,abc" })).toThrow("expects an array of numbers");
    expect(() => injectParameters(recipe(), { span: "{from:" })).toThrow("expects a JSON value");
  });

  it("refuses parameters for a notebook without a parameters cell", () => {
    const notebook = recipe();
    notebook.cells[1].metadata = { tags: [] };
    expect(() => injectParameters(notebook, { ticker: "MSFT" }, "recipe plain")).toThrow(
      "recipe plain has no code cell tagged 'parameters'",
    );
  });
});

describe("reading --param arguments", () => {
  it("splits each at its first equals sign", () => {
    expect(parseParamArgs(["ticker=MSFT", "filter=a=b", "empty="])).toEqual({ ticker: "MSFT", filter: "a=b", empty: "" });
  });

  it("refuses an argument without a key or given twice", () => {
    expect(() => parseParamArgs(["MSFT"])).toThrow("Cannot read parameter 'MSFT': write it as key=value");
    expect(() => parseParamArgs(["a=1", "a=2"])).toThrow("Parameter 'a' is given twice");
  });
});

describe("counting figures", () => {
  const chart = '<svg><g aria-label="y-axis tick"><path d="M0,0"></path></g><g aria-label="bar"><rect x="1"></rect></g></svg>';
  const axesOnly = '<svg><g aria-label="x-axis tick"><path d="M0,0"></path></g><g aria-label="y-grid"><line></line></g></svg>';

  it("counts outputs that hold an SVG with marks, not axes alone nor tables", () => {
    expect(svgWithMarks(chart)).toBe(true);
    expect(svgWithMarks(axesOnly)).toBe(false);
    const notebook = {
      cells: [
        {
          cell_type: "code",
          outputs: [{ output_type: "display_data", data: { "text/html": [`<div class="wb-chart">`, chart, "</div>"] } }],
        },
        { cell_type: "code", outputs: [{ output_type: "execute_result", data: { "image/svg+xml": chart, "text/html": chart } }] },
        {
          cell_type: "code",
          outputs: [{ output_type: "execute_result", data: { "text/html": "<table></table>" } }, { output_type: "stream", text: "<svg>" }],
        },
        { cell_type: "code", outputs: [{ output_type: "display_data", data: { "image/svg+xml": axesOnly } }] },
        { cell_type: "markdown" },
      ],
    };
    expect(figureCount(notebook)).toBe(2);
  });
});
