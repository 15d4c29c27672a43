/**
 * The layers of the house, bottom to top: a module may import from its own layer or a lower
 * one, never a higher one, and nothing may import in a circle. `npm test` runs these rules
 * (test/architecture/layers.test.ts); the README's layout section says the same in words.
 */
const LAYERS = [
  ["calendar/"],
  ["contract/"],
  ["workbench/runtime/", "workbench/errors/", "workbench/display/", "workbench/progress/"],
  ["workbench/http/"],
  ["workbench/frames/"],
  ["workbench/query/"],
  ["workbench/events/"],
  ["workbench/service/"],
  ["workbench/guard/"],
  ["workbench/fetch/"],
  ["workbench/pipeline/"],
  ["workbench/api/", "workbench/provenance/"],
  ["workbench/store/"],
  ["workbench/calendar.ts", "workbench/client.ts"],
  ["workbench/research/"],
  ["workbench/mod.ts"],
  ["kernel-helpers/"],
  ["notebook.ts"],
  ["cli/"],
];

const escape = (p) => p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const pathsOf = (layer) => `^(${layer.map(escape).join("|")})`;

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${i}-imports-up`,
  comment: `${layer.join(", ")} may not import from a higher layer (${LAYERS.slice(i + 1).flat().join(", ")})`,
  severity: "error",
  from: { path: pathsOf(layer) },
  to: { path: pathsOf(LAYERS.slice(i + 1).flat()) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules may not import each other in a circle, directly or through others.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-folder-cycle",
      comment:
        "Folders may not import each other in a circle either, even when no module does (kernel-helpers' rich/ picks among display/, charts/ and entitlements/, which never import it; the market's options/ use ticks/, never the reverse).",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "workbench-not-sandbox",
      comment: "The workbench talks to any Datasets Service over HTTP: it never imports the sandbox's code.",
      severity: "error",
      from: { path: "^workbench/" },
      to: { path: "^sandbox/" },
    },
    {
      name: "workbench-not-kernel-helpers",
      comment: "The workbench works outside a notebook: it never imports the kernel helpers (notebook.ts joins the two).",
      severity: "error",
      from: { path: "^workbench/" },
      to: { path: "^kernel-helpers/" },
    },
    {
      name: "kernel-helpers-through-mod",
      comment: "The kernel helpers use the workbench only through its public module, workbench/mod.ts.",
      severity: "error",
      from: { path: "^kernel-helpers/" },
      to: { path: "^(workbench|contract|calendar|sandbox)/", pathNot: "^workbench/mod\\.ts$" },
    },
    {
      name: "launcher-not-service",
      comment:
        "The sandbox's launcher runs the service's command: it never loads the service or the market generator into the process that starts it (a notebook kernel, a test, the command line).",
      severity: "error",
      from: { path: "^sandbox/launcher/" },
      to: { path: "^sandbox/(service|market)/" },
    },
    {
      name: "sandbox-not-clients",
      comment: "The sandbox is a service: it never imports the workbench or the kernel helpers.",
      severity: "error",
      from: { path: "^sandbox/" },
      to: { path: "^(workbench|kernel-helpers)/" },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|test|bench|scripts|data|out|\\.cache)/" },
    tsPreCompilationDeps: true,
    // The planted-import test cruises a scratch tree without one.
    ...(require("node:fs").existsSync("tsconfig.json") ? { tsConfig: { fileName: "tsconfig.json" } } : {}),
    moduleSystems: ["es6", "cjs"],
  },
};
