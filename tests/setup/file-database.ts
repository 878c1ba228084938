import { afterAll, inject } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { closeDb } from "../../lib/db/client";
import { createFileDatabase } from "./test-database";

// Runs before each test file: point the app's config at a fresh copy of the migrated template.
const database = await createFileDatabase(inject("testDatabase"));
delete process.env.DATABASE_URL;
Object.assign(process.env, database.env);
resetConfigForTests();

afterAll(async () => {
  await closeDb();
  await database.drop();
});
