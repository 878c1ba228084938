-- The database's functions live in prisma/functions, one file each; the migrator re-applies a file
-- when its checksum differs from the one recorded here (like Flyway's repeatable migrations).
-- Migrations keep table changes; from this one on, none defines a function.
CREATE TABLE "schema_functions" (
  "name" TEXT PRIMARY KEY,
  "checksum" VARCHAR(64) NOT NULL,
  "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
);
