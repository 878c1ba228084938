import { describe, expect, it } from "vitest";
import { databaseError } from "@/lib/domain-error";
import { Prisma } from "@/lib/db/generated/client";
import { errorResponse } from "@/lib/http/error-format";
import { toApiError } from "@/lib/http/respond";

/** Prisma's wrapping of a PostgreSQL error raised through the driver adapter, as a raw query meets it. */
const adapterError = (sqlstate: string, message: string) =>
  new Prisma.PrismaClientKnownRequestError("Invalid `prisma.$executeRaw()` invocation", {
    code: "P2010",
    clientVersion: "test",
    meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "postgres", code: sqlstate, originalCode: sqlstate, message } } },
  });

describe("a database failure", () => {
  it.each([
    ["a statement past its time limit (waiting for the change feed's lock)", adapterError("57014", "canceling statement due to statement timeout")],
    ["a lock wait past its limit", adapterError("55P03", "canceling statement due to lock timeout")],
    ["a deadlock, rolled back", adapterError("40P01", "deadlock detected")],
    ["a transaction past its time limit", new Prisma.PrismaClientKnownRequestError("Transaction API error: A commit cannot be executed on an expired transaction.", { code: "P2028", clientVersion: "test" })],
    ["no pooled connection in time", new Error("timeout exceeded when trying to connect")],
  ])("that is load is DATABASE_BUSY: %s", async (_, cause) => {
    const error = databaseError(cause);
    expect(error).toMatchObject({ code: "DATABASE_BUSY", cause });
    const response = errorResponse(toApiError(error, "test"), "calls");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toMatchObject({ error: "Database busy", error_code: "DATABASE_BUSY" });
  });

  it.each([
    ["the server refusing connections", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["a connection cut by the server", adapterError("57P01", "terminating connection due to administrator command")],
    ["nothing known", undefined],
  ])("that is not load stays DATABASE_ERROR: %s", (_, cause) => {
    expect(databaseError(cause).code).toBe("DATABASE_ERROR");
    expect(toApiError(databaseError(cause), "test").status).toBe(500);
  });
});
