/**
 * How long a roster import of the documented maximum takes (issue 50 item 4; docs/units.md,
 * "Roster"): UNIT_IMPORT_MAX_ROWS units as one CSV, through importUnits (the parse, the call-sign
 * checks, the one insert statement, the audit entry and the read back), on a scratch PostgreSQL
 * database and on an embedded PGlite one in a temporary directory. ROUNDS imports each (a fresh
 * set of call signs each time, onto the roster the earlier rounds left).
 *
 *   npx tsx bench/unit-import.ts          (server: BENCH_DATABASE_URL, else 127.0.0.1:5432)
 *   ROUNDS=5 npx tsx bench/unit-import.ts
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { API_KEY_ACTOR } from "../lib/access/actor";
import { parseConfig, resetConfigForTests } from "../lib/config";
import { closeDb, migrateDatabase } from "../lib/db/client";
import { importUnits } from "../lib/units/roster";
import { UNIT_IMPORT_MAX_ROWS } from "../lib/units/schema";
import { withScratchDatabase } from "./scratch-database";
import { loadAverage } from "./stats";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const rounds = Number(process.env.ROUNDS ?? 3);

function roster(round: number): string {
  const lines = Array.from({ length: UNIT_IMPORT_MAX_ROWS }, (_, index) =>
    `R${round}-${index},${index % 2 ? "ambulance" : "engine"},Unit ${index},Station ${index % 40},25.${index % 90},-80.19,${index % 7 ? "true" : "no"}`);
  return ["call_sign,type,name,station,station_latitude,station_longitude,in_service", ...lines].join("\n");
}

async function timeImports(): Promise<number[]> {
  const seconds: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const csv = roster(round);
    const started = performance.now();
    const { created } = await importUnits(csv, API_KEY_ACTOR);
    seconds.push(Number(((performance.now() - started) / 1000).toFixed(2)));
    if (created !== UNIT_IMPORT_MAX_ROWS) throw new Error(`imported ${created} units`);
  }
  return seconds;
}

async function main(): Promise<void> {
  const postgresql = await withScratchDatabase(server, () => timeImports());
  const dataDir = await mkdtemp(path.join(tmpdir(), "mayday-unit-import-"));
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = dataDir;
  resetConfigForTests();
  let pglite: number[];
  try {
    await migrateDatabase(parseConfig({ DATA_DIR: dataDir }));
    pglite = await timeImports();
  } finally {
    await closeDb();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ units: UNIT_IMPORT_MAX_ROWS, rounds, seconds: { postgresql, pglite }, loadAverage: loadAverage() }, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
