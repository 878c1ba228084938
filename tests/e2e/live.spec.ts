import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { openDashboard, showLatestFirst, tilesOffline } from "./dashboard-helpers";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";

/** The queue's "<N> open" label as a number. */
async function openCount(page: Page): Promise<number> {
  const text = (await page.locator(".queue-total").textContent()) ?? "";
  return Number(text.replace(/[^\d]/g, ""));
}

async function serverOpenCount(request: APIRequestContext): Promise<number> {
  const response = await request.get("/api/live/board");
  expect(response.status()).toBe(200);
  return (await response.json()).open.total;
}

async function postCall(request: APIRequestContext, id: string): Promise<void> {
  const event = specCallEvent(id, { location: "Mission District, San Francisco", eventTimestamp: Math.floor(Date.now() / 1000) });
  const response = await request.post("/api/voiceagent-webhook", { data: event });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe("live dashboard", () => {
  test("a call the webhook receives appears on the open dashboard without reloading", async ({ page, request }) => {
    await tilesOffline(page);
    let documents = 0;
    page.on("request", (req) => {
      if (req.resourceType() === "document") documents += 1;
    });
    await openDashboard(page);
    // The queue draws the rows in view: the latest received first puts this test's fresh incidents at the top.
    await showLatestFirst(page);
    await expect(page.getByTestId("feed-mode")).toHaveText("Live");
    await expect.poll(() => openCount(page)).toBe(await serverOpenCount(request));
    const before = await openCount(page);

    await postCall(request, "e2e-live-push");
    // The row of its incident, whose latest call it is.
    const item = page.locator('.queue-item[data-latest-call-id="e2e-live-push"]');
    await expect(item).toBeVisible();
    await expect(item.locator(".new-badge")).toBeVisible();
    await expect.poll(() => openCount(page)).toBe(before + 1);
    expect(await openCount(page)).toBe(await serverOpenCount(request));
    await expect(page.getByTestId("count-critical")).toHaveText(String((await (await request.get("/api/live/board")).json()).open_incidents_by_severity.critical));
    expect(documents).toBe(1);
  });

  test("when the stream cannot be opened the dashboard polls the change feed and shows the same picture", async ({ page, request }) => {
    await tilesOffline(page);
    await page.route(/\/api\/calls\/stream/, (route) => route.abort("connectionrefused"));
    await openDashboard(page);
    // The queue draws the rows in view: the latest received first puts this test's fresh incidents at the top.
    await showLatestFirst(page);
    await expect(page.getByTestId("feed-mode")).toHaveText("Polling");
    await postCall(request, "e2e-live-polled");
    await expect(page.locator('.queue-item[data-latest-call-id="e2e-live-polled"]')).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => openCount(page)).toBe(await serverOpenCount(request));
    await expect(page.getByTestId("feed-mode")).toHaveText("Polling");
  });
});
