// Records in package-lock.json the other platforms' native packages (Deno, Polars, DuckDB,
// Rollup binaries) that npm leaves out when the registry it reaches lacks their versions.
// Without them `npm ci` refuses the lock as out of sync on every machine. Each entry carries
// its `os`, `cpu` (and `libc`) so `npm ci` skips it here and installs it where it belongs.
// Run it after any `npm install` that changes the lock:
//
//   node scripts/lockPlatforms.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./paths.mjs";
import process from "node:process";

const OSES = ["darwin", "linux", "win32", "android", "freebsd", "openbsd", "openharmony"];
const CPUS = ["arm64", "x64", "arm", "ia32", "loong64", "ppc64", "riscv64", "s390x"];

/** The lock entry of a platform binary package, from the platform words in its name. */
export function platformEntry(name, version) {
  const words = name.replace(/^@[^/]+\//, "").split("-");
  const os = OSES.find((o) => words.includes(o));
  const cpu = CPUS.find((c) => words.includes(c));
  const entry = { version, optional: true };
  if (os) entry.os = [os];
  if (cpu) entry.cpu = [cpu];
  if (words.includes("musl")) entry.libc = ["musl"];
  else if (os === "linux" && words.some((w) => ["gnu", "glibc", "gnueabihf"].includes(w))) entry.libc = ["glibc"];
  return entry;
}

// LOCK_PLATFORMS_FILE points at another lock (the tests use a scratch copy).
const file = process.env.LOCK_PLATFORMS_FILE ?? join(repoRoot, "package-lock.json");
const lock = JSON.parse(readFileSync(file, "utf8"));
const added = [];
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    lock.packages[key] = platformEntry(name, version);
    added.push(`${name}@${version}`);
  }
}
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(added.length ? `lockPlatforms: recorded ${added.length}: ${added.join(", ")}` : "lockPlatforms: nothing missing");
