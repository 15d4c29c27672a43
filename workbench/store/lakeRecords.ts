/**
 * What a lake folder's manifest records of its files and partitions (manifest.ts holds the
 * whole manifest): kept apart so the modules that check, plan and write a folder share them
 * without importing one another.
 */

/** How a date-time column is stored in the folder's files (its dtype in the frames is the dataset's). */
export type TimeUnit = "ms" | "us" | "ns";

/** A data file of the folder: its size, rows and the SHA-256 of its bytes (hex), as written. */
export interface FileRecord {
  /** Its size in bytes. */
  bytes: number;
  /** Its rows. */
  rows: number;
  /** The SHA-256 of its bytes, hex. */
  sha256: string;
}

/**
 * What the folder records of a partition: its rows and, when it has rows, the file holding
 * them relative to the folder (absent in formats 1 and 2 for a partition's own `part.parquet`);
 * formats 1 and 2 also recorded the file's size here.
 */
export interface PartitionRecordOnDisk {
  /** The partition's rows. */
  rows: number;
  /** The file holding them, relative to the folder. */
  file?: string;
  /** Formats 1 and 2: the size of the partition's file (format 3 records it with the file). */
  bytes?: number;
}
