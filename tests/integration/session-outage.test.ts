import { afterAll, describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/calls/[id]/route";
import { GET as listCalls } from "@/app/api/calls/route";
import { GET as health } from "@/app/api/health/route";
import { resetConfigForTests } from "@/lib/config";
import { resetHealthForTests } from "@/lib/health/check-readiness";
import { signedIn } from "../support/people";
import { serverUrl } from "../setup/test-database";
import { setDatabaseReachable } from "../support/database-reachable";

/** A signed-in dashboard while the database is down: it must still learn of the outage and its backlog. */
describe.skipIf(!serverUrl())("a session while the database cannot confirm it", () => {
  afterAll(async () => {
    await setDatabaseReachable(true);
    delete process.env.HEALTH_CHECK_INTERVAL_MS;
    resetConfigForTests();
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

    await setDatabaseReachable(false);

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
    // Anyone else cannot be told apart from a person whose access changed: the database must say.
    const strangerList = await listCalls(new Request("http://localhost/api/calls", withCookie(stranger)), undefined);
    expect(strangerList.status).toBe(500);
  });
});
