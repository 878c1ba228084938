import { mkdtemp } from "node:fs/promises";
import path from "node:path";

/** A new directory inside this test file's data directory (tests/setup/file-database.ts): removed with it when the file ends. */
export function scratchDirectory(label: string): Promise<string> {
  const fileDir = process.env.DATA_DIR;
  if (!fileDir) throw new Error("scratchDirectory needs the test file's DATA_DIR (tests/setup/file-database.ts)");
  return mkdtemp(path.join(fileDir, `${label}-`));
}
