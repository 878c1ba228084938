import { afterAll, inject } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { stopProcessParts } from "../../lib/process-parts";
import { createFileDatabase } from "./test-database";

// Runs before each test file: point the app's config at a fresh copy of the migrated template.
const database = await createFileDatabase(inject("testDatabase"));
delete process.env.DATABASE_URL;
Object.assign(process.env, database.env);
resetConfigForTests();

afterAll(async () => {
  // Everything the file's app started (grouper, text index upkeep, file writer, tail, database...)
  // has stopped before its database and files are removed: a run still going would lose its
  // connection, or open the database again, or write into the directory being removed.
  await stopProcessParts();
  await database.drop();
});
