import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { parseConfig } from "../../lib/config";
import { migrateDatabase } from "../../lib/db/client";
import { embeddedDatabaseDir } from "../../lib/db/pglite";
import { admin, serverUrl, type TemplateInfo, withDatabase } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: TemplateInfo;
  }
}

// migrateDatabase closes its connection: a template cannot be copied while anyone is connected to
// it (or holds its lock).
const migrate = (env: Record<string, string>) => migrateDatabase(parseConfig(env));

/** Migrates one template database per run with the same code `npm start` uses. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const filesDir = await mkdtemp(path.join(tmpdir(), "mayday-test-"));
  const removeFiles = () => rm(filesDir, { recursive: true, force: true });
  const server = serverUrl();
  if (server) {
    const template = `mayday_test_${runId}_template`;
    await admin(server, (client) => client.query(`CREATE DATABASE "${template}"`));
    await migrate({ DATABASE_URL: withDatabase(server, template) });
    project.provide("testDatabase", { kind: "postgresql", template, server, runId, filesDir });
    return async () => {
      await admin(server, async (client) => {
        const { rows } = await client.query<{ datname: string }>(
          "SELECT datname FROM pg_database WHERE datname LIKE $1",
          [`mayday_test_${runId}_%`],
        );
        for (const row of rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
      });
      await removeFiles();
    };
  }
  const root = await mkdtemp(path.join(tmpdir(), "mayday-template-"));
  await migrate({ DATA_DIR: root });
  project.provide("testDatabase", { kind: "pglite", template: embeddedDatabaseDir(root), runId, filesDir });
  return async () => {
    await rm(root, { recursive: true, force: true });
    await removeFiles();
  };
}
