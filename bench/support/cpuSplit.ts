/**
 * Splitting a client's CPU: V8 sampling-profiler samples by the pipeline stage named on their
 * stacks (the innermost frame that names a stage wins), and the process's CPU by thread
 * (/proc/self/task), since Polars works on threads of its own the profiler does not see.
 */
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";

/** A stage and how a stack frame is told to belong to it (the innermost match wins). */
export const STAGES: [string, (fn: string, url: string) => boolean][] = [
  ["provenance (row hashes, records)", (_f, u) => u.includes("/provenance/")],
  ["contract checks", (f, u) => u.includes("contractCheck.ts") || u.includes("/zod/") || f === "checkAnswer"],
  ["stacking", (f) => f === "stackFrames"],
  ["date-times (typing)", (f) => f === "dateTimeTextToUtcNs"],
  ["typing (typeFrame, casts)", (f) => f === "typeFrame" || f === "castExpr" || f === "emptyFrame"],
  ["CSV parse (Polars reader)", (f) => f === "readCsvPage" || f === "readCSV"],
  ["body handling (bytes, gunzip)", (f) => f === "pageToFrame"],
  [
    "transport (ky, fetch, body to bytes)",
    (_f, u) =>
      u.includes("/ky/") || u.includes("transport.ts") || u.startsWith("ext:deno_fetch") || u.startsWith("ext:deno_web") ||
      u.includes("ext:deno_http"),
  ],
  ["pager, pipeline, rate window", (_f, u) => u.includes("/workbench/")],
];

export interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Sampled milliseconds per stage, each sample given to the innermost frame that names a stage. */
export function split(
  profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] },
  stages: [string, (fn: string, url: string) => boolean][] = STAGES,
): Map<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOf = new Map<number, string>();
  const stage = (id: number): string => {
    const known = stageOf.get(id);
    if (known) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    let s: string;
    if (functionName === "(idle)" || functionName === "(program)" || functionName === "(garbage collector)") s = functionName;
    else s = stages.find(([, test]) => test(functionName, url))?.[0] ?? (parent.has(id) ? stage(parent.get(id)!) : "other");
    stageOf.set(id, s);
    return s;
  };
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const s = stage(id);
    ms.set(s, (ms.get(s) ?? 0) + profile.timeDeltas[i] / 1000);
  });
  return ms;
}

/** CPU seconds of this process's threads, by thread name. */
export function threadSeconds(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const key = tid === String(process.pid) ? "main thread" : /polars|rayon/i.test(name) ? "Polars pool" : name;
      out.set(key, (out.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return out;
}
