import { expect, test } from "@playwright/test";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { admin, serverUrl } from "../setup/test-database";
import { openDashboard, queuedIncident, saveScreenshot, tilesOffline } from "./dashboard-helpers";

const server = serverUrl();
/** The database tests/e2e/serve.ts created for this server. */
const database = `mayday_e2e_${process.env.E2E_PORT ?? "3100"}`;

/** Refuse new connections to the app's database and cut the open ones: down, as the app sees it. */
async function setDatabaseReachable(reachable: boolean): Promise<void> {
  await admin(server!, async (client) => {
    await client.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS ${reachable}`);
    if (!reachable) await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
  });
}

test.describe("calls accepted while the database is down", () => {
  // PGlite runs inside the app: there is no server to take away.
  test.skip(!server, "needs PostgreSQL (TEST_DATABASE_URL)");

  test("show as waiting to be recorded, then appear on the board once the database is back", async ({ page, request }) => {
    const ids = [`conv_e2e_backlog_${Date.now()}_a`, `conv_e2e_backlog_${Date.now()}_b`];
    await tilesOffline(page);
    await openDashboard(page);
    const banner = page.getByTestId("backlog-banner");
    await expect(banner).toHaveCount(0);

    await setDatabaseReachable(false);
    try {
      for (const id of ids) {
        const response = await request.post("/api/voiceagent-webhook", { data: specCallEvent(id) });
        expect(response.status(), await response.text()).toBe(200);
      }
      await expect(banner).toContainText("2 calls waiting to be recorded", { timeout: 20_000 });
      await saveScreenshot(page, "backlog-banner");
    } finally {
      await setDatabaseReachable(true);
    }

    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    for (const id of ids) await queuedIncident(page, request, id);
  });
});
