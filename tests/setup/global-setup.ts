import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { applyMigrations } from "../../lib/db/migrations";
import { embeddedDatabaseDir, openEmbeddedDatabase } from "../../lib/db/pglite";
import { admin, serverUrl, type TemplateInfo, withDatabase } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: TemplateInfo;
  }
}

/** Migrates one template database per run with the same code `npm start` uses. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const server = serverUrl();
  if (server) {
    const template = `mayday_test_${runId}_template`;
    await admin(server, (client) => client.query(`CREATE DATABASE "${template}"`));
    const factory = new PrismaPg({ connectionString: withDatabase(server, template) });
    await applyMigrations(factory);
    project.provide("testDatabase", { kind: "postgresql", template, server, runId });
    return async () => {
      await admin(server, async (client) => {
        const { rows } = await client.query<{ datname: string }>(
          "SELECT datname FROM pg_database WHERE datname LIKE $1",
          [`mayday_test_${runId}_%`],
        );
        for (const row of rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
      });
    };
  }
  const root = await mkdtemp(path.join(tmpdir(), "mayday-template-"));
  const directory = embeddedDatabaseDir(root);
  const embedded = await openEmbeddedDatabase(directory);
  try {
    await applyMigrations(new PrismaPGlite(embedded.pglite));
  } finally {
    await embedded.close();
  }
  project.provide("testDatabase", { kind: "pglite", template: directory, runId });
  return () => rm(root, { recursive: true, force: true });
}
