import { describe, expect, it } from "vitest";
import { Prisma } from "@/lib/db/generated/client";
import { prepared, preparedStatementName } from "@/lib/db/prepared";

/** Which statements stay prepared on a connection (lib/db/prepared.ts). */
describe("prepared statements", () => {
  const text = (statement: Prisma.Sql) => ({ sql: statement.sql });

  it("names a marked statement by its text, the same name each time, another name for another text", () => {
    const upsert = (table: string) => prepared(Prisma.sql`INSERT INTO ${Prisma.raw(table)} SELECT * FROM unnest(${[1, 2]}::int[])`);
    const name = preparedStatementName(text(upsert("calls")));
    expect(name).toMatch(/^mayday_[0-9a-f]{24}$/);
    expect(preparedStatementName(text(upsert("calls")))).toBe(name);
    expect(preparedStatementName(text(upsert("other_calls")))).not.toBe(name);
    // The values are parameters, not text: other values, the same statement.
    expect(upsert("calls").values).toEqual([[1, 2]]);
  });

  it("leaves every other statement unnamed, so a connection never keeps one per generated text", () => {
    expect(preparedStatementName(text(Prisma.sql`SELECT ${1}::int`))).toBe("");
    expect(preparedStatementName({ sql: " /* prepared */ SELECT 1" })).toBe("");
  });
});
