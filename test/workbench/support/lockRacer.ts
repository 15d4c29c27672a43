/**
 * One contender of the folder-lock race (test/workbench/lockRace.test.ts), run as its own
 * process (Deno, as the kernel). It reads commands from stdin, one a line, and answers each on
 * stdout: `try <dir> <at>` spins until the clock reads `at` (ms since 1970, so that every
 * contender tries at once) and tries to lock `dir`, answering `held <dir>`, `busy <dir>
 * <message>` or `error <dir> <message>`; `release` releases what it holds and answers
 * `released`; `hold <dir>...` locks each folder and answers `holding` (a holder to be killed,
 * leaving stale locks behind).
 */
import process from "node:process";
import { createInterface } from "node:readline";
import { lockFolder } from "../../../workbench/runtime/files.ts";

const releases: (() => void)[] = [];
/** How long before the instant a contender wakes up to spin (a timer may fire a little late). */
const SPIN_MS = 5;
const say = (line: string) => process.stdout.write(`${line.replace(/\n/g, " ")}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...args] = line.split(" ");
  if (command === "try") {
    const [dir, at] = args;
    // Asleep until just before the instant, then a spin for the last milliseconds: every
    // contender starts within the same millisecond, and the four do not spend the wait
    // spinning, taking the cores from one another (and from the others' spins).
    const sleep = Number(at) - SPIN_MS - Date.now();
    if (sleep > 0) await new Promise((resolve) => setTimeout(resolve, sleep));
    while (Date.now() < Number(at)) { /* spin */ }
    try {
      releases.push(lockFolder(dir));
      say(`held ${dir}`);
    } catch (error) {
      const e = error as Error;
      say(`${e.name === "FolderInUseError" ? "busy" : "error"} ${dir} ${e.message}`);
    }
  } else if (command === "release") {
    for (const release of releases.splice(0)) release();
    say("released");
  } else if (command === "hold") {
    for (const dir of args) releases.push(lockFolder(dir));
    say("holding");
  } else if (command === "exit") process.exit(0);
}
