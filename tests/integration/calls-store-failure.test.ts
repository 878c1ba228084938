import { apiRequest } from "@/tests/support/auth";
import { afterAll, describe, expect, it } from "vitest";
import { GET as getOne, PATCH } from "@/app/api/calls/[id]/route";
import { GET } from "@/app/api/calls/route";
import { resetConfigForTests } from "@/lib/config";
import { closeDb } from "@/lib/db/client";

const databaseError = {
  error: "Database error",
  message: "The call store is not available",
  timestamp: expect.any(String),
  error_code: "DATABASE_ERROR",
};

describe("calls endpoints when the store is down", () => {
  const original = process.env.DATABASE_URL;

  afterAll(async () => {
    await closeDb();
    process.env.DATABASE_URL = original;
    resetConfigForTests();
  });

  it("answer 500 DATABASE_ERROR without internals", async () => {
    await closeDb();
    // Nothing listens on port 1: every query fails to connect.
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/none";
    resetConfigForTests();
    const context = { params: Promise.resolve({ id: "x" }) };
    const responses = [
      await GET(apiRequest("http://localhost/api/calls"), undefined),
      await getOne(apiRequest("http://localhost/api/calls/x"), context),
      await PATCH(
        apiRequest("http://localhost/api/calls/x", {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ status: "dispatched" }),
        }),
        context,
      ),
    ];
    for (const response of responses) {
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual(databaseError);
    }
  });
});
