import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/calls/route";
import { POST as signInRoute } from "@/app/api/session/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { setRateLimiterForTests } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";
import { signedIn, TEST_PASSWORD } from "@/tests/support/people";

/**
 * Guessing a password: limited per client address (the registry's session policy, 10 a minute) and
 * per account (AUTH_LOCKOUT_ATTEMPTS per AUTH_LOCKOUT_SECONDS, right or wrong), so an account cannot
 * be guessed from many addresses; once its window ends the right password works.
 */
const LOCKOUT_SECONDS = 4;
/**
 * The limiter's clock: its windows are aligned on the clock, so on the real one a window could end
 * between the guessing and the checks that follow it. This one starts a second into a minute (a new
 * address window and a new lock-out window) and moves only when the test moves it.
 */
let clock = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;

beforeAll(() => {
  Object.assign(process.env, { AUTH_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS), AUTH_LOCKOUT_ATTEMPTS: "10", TRUST_PROXY: "1" });
  resetConfigForTests();
  setRateLimiterForTests(new MemoryRateLimiter(() => clock));
});

afterAll(() => {
  for (const name of ["AUTH_LOCKOUT_SECONDS", "AUTH_LOCKOUT_ATTEMPTS", "TRUST_PROXY"]) delete process.env[name];
  resetConfigForTests();
  setRateLimiterForTests(undefined);
});

const attempt = (email: string, password: string, address: string) =>
  signInRoute(
    new Request("http://localhost/api/session", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `${address}, 127.0.0.1` },
      body: JSON.stringify({ email, password }),
    }),
    undefined,
  );

describe("sign-in", () => {
  it("1,000 wrong passwords from 10 addresses are all refused; the right one works once the lock-out ends", async () => {
    const { email, user } = await signedIn("dispatcher");
    const started = clock;
    const statuses = new Map<string, number>();
    let checked = 0;
    for (let i = 0; i < 1000; i++) {
      clock += 1;
      const response = await attempt(email, `guess number ${i}`, `203.0.113.${i % 10}`);
      const body = await response.json();
      const key = `${response.status} ${body.error_code}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (response.status === 401) checked++;
    }
    // Every guess refused: a wrong password (401), the account locked or the address limited (429).
    expect([...statuses.keys()].filter((key) => !["401 UNAUTHORIZED", "429 RATE_LIMITED", "429 TOO_MANY_ATTEMPTS"].includes(key))).toEqual([]);
    // The password was checked at most 10 times per lock-out window the guessing spanned.
    const windows = Math.ceil((clock - started) / (LOCKOUT_SECONDS * 1000)) + 1;
    expect(checked).toBeLessThanOrEqual(10 * windows);
    expect(statuses.get("429 TOO_MANY_ATTEMPTS") ?? 0).toBeGreaterThan(0);

    // While the account is locked, even the right password is refused.
    const locked = await attempt(email, TEST_PASSWORD, "198.51.100.1");
    expect(locked.status).toBe(429);
    expect((await locked.json()).error_code).toBe("TOO_MANY_ATTEMPTS");

    clock += LOCKOUT_SECONDS * 1000;
    const right = await attempt(email, TEST_PASSWORD, "198.51.100.2");
    expect(right.status).toBe(200);
    expect((await right.json()).id).toBe(user.id);
    const cookie = right.headers.getSetCookie().map((value) => value.split(";")[0]).join("; ");
    expect((await listRoute(new Request("http://localhost/api/calls", { headers: { cookie } }), undefined)).status).toBe(200);

    // Every refused attempt that reached the account is in the audit trail, none as a sign-in.
    const db = await getDb();
    const rows = await db.$queryRaw<{ action: string; n: bigint }[]>`
      SELECT action, count(*) AS n FROM audit_events WHERE target_id = ${user.id} AND action LIKE 'session.%' GROUP BY action`;
    const audited = Object.fromEntries(rows.map((row) => [row.action, Number(row.n)]));
    expect(audited["session.signed_in"]).toBe(2); // signedIn() and the right password
    expect(audited["session.sign_in_failed"]).toBe(checked + (statuses.get("429 TOO_MANY_ATTEMPTS") ?? 0) + 1);
  });

  it("an unknown email and a wrong password answer alike", async () => {
    const { email } = await signedIn("viewer");
    const unknown = await attempt("nobody@example.org", "whatever it is", "198.51.100.50");
    const wrong = await attempt(email, "whatever it is", "198.51.100.51");
    const strip = async (response: Response) => {
      const body = await response.json();
      delete body.timestamp;
      return { status: response.status, ...body };
    };
    expect(await strip(unknown)).toEqual(await strip(wrong));
  });

  it("refuses a malformed body with the documented 400 and changes nothing", async () => {
    const response = await signInRoute(
      new Request("http://localhost/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "not an email" }) }),
      undefined,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: "INVALID_PARAMETER" });
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});
