import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The calls' door (lib/calls/write): no other file of the service writes `calls`,
 * `call_status_changes` or `call_corrections` (nor `call_transcripts`, written with its call), in SQL or through Prisma's model methods. Tests and benches set up
 * fixtures as they need; migrations are the history of the schema.
 */
const ROOT = path.resolve(__dirname, "../..");
const DOOR = "lib/calls/write/";
const SCANNED = ["app", "components", "lib", "prisma/functions", "scripts", "instrumentation.ts"];
const SKIPPED = ["lib/db/generated/"];

const SQL_WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?"?(?:calls|call_status_changes|call_corrections|call_transcripts)"?(?![\w"])/i;
const MODEL_WRITE = /\.(?:call|callStatusChange|callCorrection|callTranscript)\s*\.\s*(?:create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany)\s*\(/;

function writesCalls(source: string): boolean {
  return SQL_WRITE.test(source) || MODEL_WRITE.test(source);
}

function filesUnder(relative: string): string[] {
  const absolute = path.join(ROOT, relative);
  let entries;
  try {
    entries = readdirSync(absolute, { withFileTypes: true });
  } catch {
    return /\.[cm]?[jt]sx?$|\.sql$/.test(relative) ? [relative] : [];
  }
  return entries.flatMap((entry) => {
    const child = path.posix.join(relative, entry.name);
    if (SKIPPED.some((skipped) => `${child}/`.startsWith(skipped))) return [];
    if (entry.isDirectory()) return filesUnder(child);
    return /\.[cm]?[jt]sx?$|\.sql$/.test(entry.name) ? [child] : [];
  });
}

const files = SCANNED.flatMap(filesUnder);

describe("one door for writing calls", () => {
  it("recognises a write of calls in SQL and through Prisma, and nothing else", () => {
    for (const write of [
      "UPDATE calls SET status = 'closed'",
      'insert into "calls" (id) values (1)',
      "WITH moved AS (UPDATE calls c SET",
      "INSERT INTO call_status_changes (call_id)",
      "INSERT INTO call_corrections (call_id, field)",
      "db.callCorrection.create({ data })",
      "INSERT INTO call_transcripts (call_id, turns, text)",
      "DELETE FROM calls WHERE id = 1",
      "TRUNCATE calls",
      "await tx.call.update({ where: { id } })",
      "db.callStatusChange.create({ data })",
    ]) {
      expect(writesCalls(write), write).toBe(true);
    }
    for (const other of [
      "UPDATE incidents SET status = 'closed'",
      "INSERT INTO call_recordings (conversation_id)",
      "UPDATE calls_hourly SET n = n + 1",
      "SELECT id FROM calls FOR UPDATE",
      "db.call.findMany({})",
      "UPDATE exercise_calls c SET released_at = now()",
    ]) {
      expect(writesCalls(other), other).toBe(false);
    }
  });

  it("is the only place that writes them", () => {
    const writers = files.filter((file) => writesCalls(readFileSync(path.join(ROOT, file), "utf8")));
    expect(writers.filter((file) => !file.startsWith(DOOR))).toEqual([]);
    // The scan reaches the door itself: every file of it that writes is found.
    expect(writers.filter((file) => file.startsWith(DOOR)).sort()).toEqual(
      [`${DOOR}incident.ts`, `${DOOR}live.ts`, `${DOOR}received.ts`, `${DOOR}simulated.ts`, `${DOOR}taken.ts`, `${DOOR}write-corrections.ts`, `${DOOR}write-status.ts`].sort(),
    );
  });
});

/**
 * The units' door (lib/units/write.ts, docs/units.md): the only writer of units, their state
 * changes and assignments; the database hands a merged-away incident's units to the incident its
 * calls went to (prisma/functions/unit_assignments_follow_merge.sql), as the merge happens there.
 */
const UNIT_DOORS = ["lib/units/write.ts", "prisma/functions/unit_assignments_follow_merge.sql"];
const UNIT_SQL_WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?"?(?:units|unit_state_changes|unit_assignments)"?(?![\w"])/i;
const UNIT_MODEL_WRITE = /\.(?:unit|unitStateChange|unitAssignment)\s*\.\s*(?:create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany)\s*\(/;
const writesUnits = (source: string) => UNIT_SQL_WRITE.test(source) || UNIT_MODEL_WRITE.test(source);

describe("one door for writing units", () => {
  it("recognises a write of units, and not a read or another table", () => {
    for (const write of ["UPDATE units SET state = 'available'", "INSERT INTO unit_state_changes (unit_id)", "UPDATE unit_assignments SET cleared_at = now()", "tx.unit.update({})"]) {
      expect(writesUnits(write), write).toBe(true);
    }
    for (const other of ["SELECT id FROM units FOR UPDATE", "UPDATE units_hourly SET n = 1", "db.unit.findMany({})", "UPDATE incidents SET status = 'resolved'"]) {
      expect(writesUnits(other), other).toBe(false);
    }
  });

  it("is the only place that writes them", () => {
    const writers = files.filter((file) => writesUnits(readFileSync(path.join(ROOT, file), "utf8")));
    expect(writers.sort()).toEqual([...UNIT_DOORS].sort());
  });
});
