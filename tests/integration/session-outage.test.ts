import { afterAll, describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/calls/[id]/route";
import { GET as listCalls } from "@/app/api/calls/route";
import { GET as health } from "@/app/api/health/route";
import { resetAuthForTests } from "@/lib/access/auth";
import { resetConfigForTests } from "@/lib/config";
import { closeDb } from "@/lib/db/client";
import { resetHealthForTests } from "@/lib/health";
import { signedIn } from "../support/people";

/** A signed-in dashboard while the database is down: it must still learn of the outage and its backlog. */
describe("a session while the database cannot confirm it", () => {
  const original = process.env.DATABASE_URL;

  afterAll(async () => {
    await closeDb();
    process.env.DATABASE_URL = original;
    delete process.env.HEALTH_CHECK_INTERVAL_MS;
    resetConfigForTests();
    resetAuthForTests();
  });

  const withCookie = (cookie: string, init: RequestInit = {}) => ({ ...init, headers: { ...init.headers, cookie } });

  it("reads health's details as the person last confirmed, and nothing more", async () => {
    process.env.HEALTH_CHECK_INTERVAL_MS = "0";
    resetConfigForTests();
    resetHealthForTests();
    const dispatcher = await signedIn("dispatcher");
    const stranger = "mayday.session_token=never-confirmed.by-this-process";
    const before = await health(new Request("http://localhost/api/health", withCookie(dispatcher.cookie)), undefined);
    expect((await before.json()).checks).toBeDefined();

    await closeDb();
    // Nothing listens on port 1: every query fails to connect.
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/none";
    resetConfigForTests();
    resetAuthForTests();

    const during = await health(new Request("http://localhost/api/health", withCookie(dispatcher.cookie)), undefined);
    expect(during.status).toBe(503);
    const report = await during.json();
    expect(report.checks.database.ok).toBe(false);
    expect(report.checks.backlog).toMatchObject({ pending: 0 });

    // A cookie this process never saw confirmed gets no details.
    const unknown = await health(new Request("http://localhost/api/health", withCookie(stranger)), undefined);
    expect((await unknown.json()).checks).toBeUndefined();

    // Reads that need the database say so; a write is not attempted on a remembered session.
    const list = await listCalls(new Request("http://localhost/api/calls", withCookie(dispatcher.cookie)), undefined);
    expect(list.status).toBe(500);
    expect(await list.json()).toMatchObject({ error_code: "DATABASE_ERROR" });
    const write = await PATCH(
      new Request(
        "http://localhost/api/calls/x",
        withCookie(dispatcher.cookie, { method: "PATCH", headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" }, body: JSON.stringify({ status: "dispatched" }) }),
      ),
      { params: Promise.resolve({ id: "x" }) },
    );
    expect(write.status).toBe(500);
    expect(await write.json()).toMatchObject({ error_code: "DATABASE_ERROR" });
    const strangerList = await listCalls(new Request("http://localhost/api/calls", withCookie(stranger)), undefined);
    expect(strangerList.status).toBe(500);
  });
});
