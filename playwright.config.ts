import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
/** The app server's first administrator (ADMIN_EMAIL at start); global-setup.ts signs in as them. */
export const E2E_ADMIN = { email: "admin@e2e.example.org", password: "e2e administrator password" };
export const ADMIN_STATE = "test-results/e2e/admin-state.json";
/** The app server's Vapi credential (POST /api/voiceagent-webhook/vapi). */
export const E2E_VAPI_SECRET = "e2e-vapi-secret";
/** The app server's ElevenLabs webhook secret: only a signed post may change a call it already has. */
export const E2E_WEBHOOK_SECRET = "e2e-webhook-secret";
/** The embedded server's MAP_PMTILES_URL: street-map.spec.ts serves the committed fixture there. */
export const E2E_STREET_MAP_PATH = "/e2e/street-map.pmtiles";
const embeddedPort = port + 1;
/**
 * A third server with no street map and no tile server (NEXT_PUBLIC_MAP_TILE_URL=offline):
 * centre-streets.spec.ts. (port + 2 is tests/e2e/second-instance.ts's.)
 */
const offlinePort = port + 3;
export const E2E_OFFLINE_ADMIN = { email: "offline-admin@e2e.example.org", password: "e2e offline administrator password" };

// Debian's Chromium: `npx playwright install` cannot download browsers on these machines.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "tests/e2e/global-setup.ts",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  // In CI a failed test runs once more; one that then passes is reported flaky, and .ci/run counts
  // flaky tests among the failures in its summary (the virtualised queue's rows are redrawn as other
  // tests' calls arrive: two specs failed that way once each in a full run, issue 34's note).
  retries: process.env.CI ? 1 : 0,
  reporter: [
    ["list"],
    ["html", { open: "never", outputFolder: "test-results/e2e-report" }],
    ["json", { outputFile: "test-results/playwright.json" }],
  ],
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    // Signed in as the administrator of ADMIN_EMAIL; first-run.spec.ts is the embedded server's.
    { name: "app", testIgnore: ["first-run.spec.ts", "street-map.spec.ts", "transport-security.spec.ts", "centre-streets.spec.ts", "call-taking.spec.ts"], use: { storageState: ADMIN_STATE } },
    // The README's first command runs on the embedded database with nobody yet: the first run is
    // walked there, on a second server of the same build (started after the first, which builds when needed).
    // It also stands behind one trusted proxy (TRUST_PROXY=1): transport-security.spec.ts; and draws
    // a street map (MAP_PMTILES_URL): street-map.spec.ts.
    { name: "embedded", testMatch: ["first-run.spec.ts", "street-map.spec.ts", "transport-security.spec.ts"], use: { baseURL: `http://localhost:${embeddedPort}` } },
    // A closed dispatch network: no PMTiles street map, no tile server; the centre's own streets
    // are drawn from its GIS data (centre-streets.spec.ts), on the embedded database. Its GIS holds
    // the synthetic county, so calls are taken there too, checked against it (call-taking.spec.ts).
    { name: "offline-map", testMatch: ["centre-streets.spec.ts", "call-taking.spec.ts"], use: { baseURL: `http://localhost:${offlinePort}` } },
  ],
  webServer: [port, embeddedPort, offlinePort].map((serverPort) => ({
    // A fresh database for the run, then the same start-up path as `npm start`.
    command: `npx tsx tests/e2e/serve.ts`,
    url: `http://localhost:${serverPort}/api/health`,
    // The first server builds the app when the sources changed: on a busy two-core machine that
    // alone took more than 4 minutes. A server that fails exits, and Playwright stops at once.
    timeout: 15 * 60_000,
    reuseExistingServer: false,
    // Stopped as `npm start` is (SIGTERM: its database closed), and tests/e2e/serve.ts then removes the
    // server's data directory; Playwright's default, SIGKILL of the group, left one in /tmp per server and run.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(serverPort),
      NEXT_TELEMETRY_DISABLED: "1",
      // The sample Vapi call links to Vapi's own host: the e2e servers never fetch it.
      RECORDING_ARCHIVER: "false",
      ...(serverPort === embeddedPort
        ? { E2E_EMBEDDED: "1", TRUST_PROXY: "1", MAP_PMTILES_URL: E2E_STREET_MAP_PATH }
        : serverPort === offlinePort
          ? { E2E_EMBEDDED: "1", NEXT_PUBLIC_MAP_TILE_URL: "offline", ADMIN_EMAIL: E2E_OFFLINE_ADMIN.email, ADMIN_PASSWORD: E2E_OFFLINE_ADMIN.password }
          : { ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, VAPI_WEBHOOK_SECRET: E2E_VAPI_SECRET, VOICEAGENT_WEBHOOK_SECRET: E2E_WEBHOOK_SECRET }),
    },
  })),
});
