import { type Browser, chromium } from "@playwright/test";

/** Debian's Chromium, headless, as the browser tests run it (`npx playwright install` cannot download here). */
export function launchBenchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-quic"],
  });
}

/** In the page: the moment (ms since navigation start) the first marker element enters the DOM, as `window.__firstMarkerMs`. */
export const FIRST_MARKER_PROBE = `
  new MutationObserver((_, observer) => {
    if (document.querySelector(".leaflet-marker-pane .leaflet-marker-icon")) {
      window.__firstMarkerMs = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;
