import { afterAll, inject } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { closeDb } from "../../lib/db/client";
import { stopGrouper } from "../../lib/incidents/grouper";
import { createFileDatabase } from "./test-database";

// Runs before each test file: point the app's config at a fresh copy of the migrated template.
const database = await createFileDatabase(inject("testDatabase"));
delete process.env.DATABASE_URL;
Object.assign(process.env, database.env);
resetConfigForTests();

afterAll(async () => {
  // A grouper run the file's last writes woke may be inside a transaction, whose connection the
  // drop would cut, and a later one would open the database again while its files are removed.
  await stopGrouper();
  await closeDb();
  await database.drop();
});
