/**
 * Free space for a download's next files, checked before each request's unit is sent (and the
 * units in flight counted as written): a download stops where the disk fills, and a re-run on a
 * disk still full stops at once, without spending requests whose rows could not be written.
 */
import { statfsSync } from "node:fs";
import { StorageError } from "../errors/storage.ts";
import type { Manifest } from "./manifest.ts";

/** The least free space a download starts with, whatever its folder's files weigh. */
const FLOOR_BYTES = 1 << 20;

/**
 * Throws a StorageError (ENOSPC) when the file system holding `dir` has less room than the next
 * request's `partitions` and the `inFlight` ones of requests sent and not yet written take,
 * judged by the folder's own files (bytes a partition, twice for the temporary file and
 * headroom) and at least 1 MiB; a folder it cannot ask is not judged.
 *
 * @example
 * ```ts
 * checkFreeSpace("lake/bars", manifest, 20); // StorageError: ... needs about 14.2 MB ... 0.9 MB free (ENOSPC)
 * ```
 */
export function checkFreeSpace(dir: string, manifest: Manifest, partitions: number, inFlight = 0): void {
  if (partitions === 0) return;
  let free: number;
  try {
    const { bavail, bsize } = statfsSync(dir);
    free = Number(bavail) * Number(bsize);
  } catch {
    return;
  }
  const files = Object.values(manifest.files ?? {});
  const withRows = Object.values(manifest.partitions).filter((p) => p.rows > 0).length;
  const perPartition = withRows > 0 ? files.reduce((n, f) => n + f.bytes, 0) / withRows : 0;
  const needed = Math.max(FLOOR_BYTES, 2 * perPartition * (partitions + inFlight));
  if (free >= needed) return;
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  throw new StorageError(
    `Cannot write into '${dir}': no space left on the device (ENOSPC): its disk has ${
      mb(free)
    } free where the next request's ${partitions} partition(s)${inFlight ? ` and the ${inFlight} of requests in flight` : ""} need about ${
      mb(needed)
    }; nothing was sent. Free some space and run the download again: it resumes where it stopped`,
    dir,
    "no space left on the device",
    "ENOSPC",
  );
}
