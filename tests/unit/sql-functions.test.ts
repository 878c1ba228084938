import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHANGE_FEED_LOCK } from "@/lib/feed";
import { FEED_TABLES } from "@/lib/feed/head";
import { CLOSED_STATUSES, OPEN_STATUSES } from "@/lib/calls/workflow";
import { PRECISIONS, STREET_LEVEL } from "@/lib/geocoding/types";
import { METRES_PER_DEGREE } from "@/lib/incidents/grouping";
import { SEVERITIES } from "@/lib/vocabulary";

/**
 * The database's functions as source (prisma/functions, lib/db/functions.ts): one file per
 * function, no migration defining one any more, and the constants SQL and TypeScript share equal.
 */
const ROOT = path.resolve(__dirname, "../..");
const FUNCTIONS = path.join(ROOT, "prisma/functions");
const MIGRATIONS = path.join(ROOT, "prisma/migrations");
/** The migration that moved the functions into prisma/functions: none from it on defines one. */
const FUNCTIONS_AS_SOURCE = "20261125150000_schema_functions";

const files = readdirSync(FUNCTIONS).filter((file) => file.endsWith(".sql")).sort();
const sources = files.map((file) => ({ file, sql: readFileSync(path.join(FUNCTIONS, file), "utf8") }));
const allSql = sources.map(({ sql }) => sql).join("\n");
const DEFINITION = /CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+"?(\w+)"?\s*\(/gi;

/** Every `IN ('a', 'b')` list of string literals in the functions, as sorted arrays. */
const inLists = () => [...allSql.matchAll(/\bIN\s*\(((?:\s*'[a-z_]+'\s*,?)+)\)/gi)].map((match) => [...match[1].matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort());

describe("the database's functions as source", () => {
  it("has one file per function, named as the function it defines", () => {
    expect(files.length).toBeGreaterThan(10);
    for (const { file, sql } of sources) {
      const defined = [...sql.matchAll(DEFINITION)].map((match) => match[1]);
      expect(defined, file).toEqual([file.replace(/\.sql$/, "")]);
      expect(sql, file).toMatch(/CREATE\s+OR\s+REPLACE\s+FUNCTION/i);
    }
  });

  it("leaves functions out of every migration from the one that moved them on", () => {
    const later = readdirSync(MIGRATIONS).filter((name) => /^\d{14}_/.test(name) && name >= FUNCTIONS_AS_SOURCE).sort();
    expect(later[0]).toBe(FUNCTIONS_AS_SOURCE);
    for (const name of later) {
      expect(readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8").match(DEFINITION), name).toBeNull();
    }
  });

  it("takes the change feed's lock by the key the code uses", () => {
    const keys = [...allSql.matchAll(/pg_advisory_xact_lock\((\d+)\)/g)].map((match) => Number(match[1]));
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys)).toEqual(new Set([CHANGE_FEED_LOCK]));
  });

  it("counts in the feed's head every table the schema numbers from the feed (a change_number column)", () => {
    const schema = readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8");
    const numbered = [...schema.matchAll(/^model \w+ \{([\s\S]*?)^\}/gm)]
      .filter(([, body]) => /@map\("change_number"\)/.test(body))
      .map(([, body]) => /@@map\("(\w+)"\)/.exec(body)?.[1]);
    expect(numbered.length).toBeGreaterThanOrEqual(9);
    expect(new Set(numbered)).toEqual(new Set(FEED_TABLES));
  });

  it("measures distance with grouping's metres per degree", () => {
    const constants = [...allSql.matchAll(/metres_per_degree\s+CONSTANT\s+DOUBLE PRECISION\s*:=\s*(\d+)/gi)].map((match) => Number(match[1]));
    expect(constants.length).toBeGreaterThanOrEqual(2);
    expect(new Set(constants)).toEqual(new Set([METRES_PER_DEGREE]));
  });

  it("names the open statuses and the final ones as the workflow does", () => {
    const lists = inLists();
    expect(lists.length).toBeGreaterThanOrEqual(4);
    for (const list of lists) {
      expect([[...OPEN_STATUSES].sort(), [...CLOSED_STATUSES].sort()]).toContainEqual(list);
    }
    expect(lists).toContainEqual([...OPEN_STATUSES].sort());
  });

  it("ranks severities in the vocabulary's order", () => {
    const ranks = [...allSql.matchAll(/ARRAY\[((?:\s*'[a-z]+'\s*,?)+)\]/g)].map((match) => [...match[1].matchAll(/'([a-z]+)'/g)].map((m) => m[1]));
    expect(ranks.length).toBeGreaterThanOrEqual(3);
    for (const rank of ranks) expect(rank).toEqual([...SEVERITIES].reverse());
  });

  it("ranks precisions as lib/geocoding does, and names street level as STREET_LEVEL", () => {
    const lists = (name: string) =>
      [...sources.find(({ file }) => file === `${name}.sql`)!.sql.matchAll(/ARRAY\[((?:\s*'[a-z_]+'\s*,?)+)\]/g)].map((match) =>
        [...match[1].matchAll(/'([a-z_]+)'/g)].map((m) => m[1]));
    expect(lists("best_location_precision")).toEqual([[...PRECISIONS]]);
    expect(lists("street_level")).toEqual([[...STREET_LEVEL]]);
  });
});
