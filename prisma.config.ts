import { defineConfig } from "prisma/config";

// Prisma 7 does not read .env; the URL is only needed by `prisma migrate deploy` on a machine
// that has the native engine. Our own scripts (scripts/db.ts) read it through lib/config.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
