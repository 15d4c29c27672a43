/**
 * The setup's npm step reports as it goes (npm itself is silent for a minute on a fresh
 * clone): a stand-in npm that fetches six packages over about 2.4 s is reported every half
 * second with the seconds so far and the packages fetched, and its own error line is kept for
 * the failure message while the HTTP lines are not.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { npmWithProgress } from "../../scripts/npmProgress.mjs";

const dir = mkdtempSync(join(tmpdir(), "npm-progress-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("reports time and packages fetched while npm runs, and keeps npm's own error", async () => {
  const npm = join(dir, "npm");
  writeFileSync(
    npm,
    `#!/bin/sh
[ "$2" = "--loglevel=http" ] || { echo "expected --loglevel=http, got $*" >&2; exit 9; }
for i in 1 2 3 4 5 6; do echo "npm http fetch GET 200 https://registry.npmjs.org/p$i 12ms" >&2; sleep 0.4; done
echo "npm error code E404" >&2
exit 3
`,
  );
  chmodSync(npm, 0o755);
  const reports: [number, number][] = [];
  const result = await npmWithProgress(npm, ["ci"], { report: (seconds, fetched) => reports.push([seconds, fetched]), everySeconds: 0.5 });
  expect(result.status).toBe(3);
  expect(result.fetched).toBe(6);
  expect(result.stderr).toBe("npm error code E404\n");
  expect(reports.length).toBeGreaterThanOrEqual(3);
  const fetched = reports.map(([, n]) => n);
  expect(fetched).toEqual([...fetched].sort((a, b) => a - b)); // never goes back
  expect(fetched.at(-1)).toBeGreaterThan(0);
  expect(fetched[0]).toBeLessThan(6);
});
