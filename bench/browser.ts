import { type Browser, type BrowserContext, chromium, type Page } from "@playwright/test";
import { TILE_PATTERN } from "../tests/e2e/dashboard-helpers";
import { signInBrowser } from "./production-server";

/** Debian's Chromium, headless, as the browser tests run it (`npx playwright install` cannot download here). */
export function launchBenchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-quic"],
  });
}

/** In the page: the moment (ms since navigation start) the first marker element enters the DOM, as `window.__firstMarkerMs`. */
const FIRST_MARKER_PROBE = `
  new MutationObserver((_, observer) => {
    if (document.querySelector(".leaflet-marker-pane .leaflet-marker-icon")) {
      window.__firstMarkerMs = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

/**
 * A page of a new context at 1440 x 900, signed in to `base`, map tiles refused (no internet in a
 * bench) and the first marker timed (FIRST_MARKER_PROBE); not yet navigated.
 */
export async function newDashboardPage(browser: Browser, base: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInBrowser(context, base);
  const page = await context.newPage();
  await page.route(TILE_PATTERN, (route) => route.abort("internetdisconnected"));
  await page.addInitScript(FIRST_MARKER_PROBE);
  return { context, page };
}
