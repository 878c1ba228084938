import { afterAll, inject } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { closeDb } from "../../lib/db/client";
import { groupNow } from "../../lib/incidents/grouper";
import { createFileDatabase } from "./test-database";

// Runs before each test file: point the app's config at a fresh copy of the migrated template.
const database = await createFileDatabase(inject("testDatabase"));
delete process.env.DATABASE_URL;
Object.assign(process.env, database.env);
resetConfigForTests();

afterAll(async () => {
  // A grouper run the file's last writes woke may be inside a transaction: its connection, cut by
  // the database's drop, would fail with no one listening. Let it finish first.
  await groupNow();
  await closeDb();
  await database.drop();
});
