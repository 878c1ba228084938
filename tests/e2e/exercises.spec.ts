import { expect, type APIRequestContext, test } from "@playwright/test";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { openDashboard, openDrawer, queuedIncident, showLatestFirst, tilesOffline } from "./dashboard-helpers";

interface Progress { state: string; progress: { released: number; planned: number } }

async function exercise(request: APIRequestContext, id: string): Promise<Progress> {
  const response = await request.get(`/api/exercises/${id}`);
  expect(response.status()).toBe(200);
  return response.json();
}

async function openTotal(request: APIRequestContext, query: string): Promise<number> {
  const response = await request.get(`/api/live/board${query}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { open: { total: number } }).open.total;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.describe("training exercise", () => {
  test("started at 60x from the dashboard: calls arrive over time under the banner, pause stops them, stop ends them, a dispatcher hides them", async ({ page, request }) => {
    // Waits of its own (the exercise's pace, pauses of 3 s) and two dashboard loads: close to the
    // default 30 s on a quiet machine, past it on a loaded one.
    test.setTimeout(120_000);
    await tilesOffline(page);
    await openDashboard(page);
    // The queue draws the rows in view: the latest received first puts this test's fresh incidents at the top.
    await showLatestFirst(page);
    await openDrawer(page, "training");
    const form = page.getByRole("form", { name: "Start a training exercise" });
    await form.getByLabel("Scenario").selectOption("nashville_tornado");
    await form.getByLabel(/Duration/).fill("30");
    await form.getByLabel(/Calls/).fill("300");
    await form.getByLabel("Surge shape").selectOption("steady");
    await form.getByLabel(/Speed/).fill("60");
    await form.getByLabel(/Live calls/).fill("20");
    await form.getByLabel("Engines").fill("2");
    const created = page.waitForResponse((response) => response.url().endsWith("/api/exercises") && response.request().method() === "POST");
    await form.getByRole("button", { name: "Start exercise" }).click();
    const { id, live_share } = (await (await created).json()) as { id: string; live_share: number };
    expect(live_share).toBe(0.2);

    // 30 exercise minutes at 60x: 30 s of wall time, about 10 calls a second.
    await expect(page.getByTestId("exercise-banner")).toContainText("EXERCISE in progress");
    await expect(page.getByTestId("exercise-progress")).toContainText("Nashville Tornado Outbreak, Steady at 60x");
    await expect.poll(async () => (await exercise(request, id)).progress.released, { timeout: 10_000 }).toBeGreaterThan(0);
    const early = (await exercise(request, id)).progress.released;
    await expect.poll(async () => (await exercise(request, id)).progress.released, { timeout: 10_000 }).toBeGreaterThan(early + 10);
    expect((await exercise(request, id)).progress.released).toBeLessThan(300);
    // Exercise calls reach the queue, marked as such; its two simulated engines are on the unit board.
    await expect(page.locator(".queue-item .exercise-badge").first()).toBeVisible({ timeout: 15_000 });
    await expect(page.locator(".unit-row .exercise-badge")).toHaveCount(2);

    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByTestId("exercise-state")).toHaveText("paused");
    await expect(page.getByTestId("exercise-banner")).toContainText("paused");
    const paused = (await exercise(request, id)).progress.released;
    await pause(3_000);
    expect((await exercise(request, id)).progress.released).toBe(paused);

    // While it is paused, a dispatcher hides exercise calls: they leave the queue and the count, a real call stays.
    const realId = `conv_e2e_real_during_exercise_${Date.now()}`;
    expect((await request.post("/api/voiceagent-webhook", { data: specCallEvent(realId) })).status()).toBe(200);
    await openDashboard(page);
    const queue = page.locator("section.queue");
    const total = page.locator(".queue-total");
    const { item: realItem } = await queuedIncident(page, request, realId);
    const everything = await openTotal(request, "");
    const withoutExercises = await openTotal(request, "?exercises=hide");
    expect(withoutExercises).toBeLessThan(everything);
    await expect(total).toHaveText(`${everything.toLocaleString("en-US")} calls`);
    await page.getByLabel("Hide exercise calls").check();
    await expect(total).toHaveText(`${withoutExercises.toLocaleString("en-US")} calls`);
    await expect(queue.locator(".exercise-badge")).toHaveCount(0);
    await expect(realItem).toBeVisible();
    // The choice survives a reload; showing them again brings them back.
    await page.reload();
    await expect(page.getByLabel("Hide exercise calls")).toBeChecked();
    await expect(total).toHaveText(`${withoutExercises.toLocaleString("en-US")} calls`);
    await page.getByLabel("Hide exercise calls").uncheck();
    await expect(total).toHaveText(`${everything.toLocaleString("en-US")} calls`);
    await expect(queue.locator(".exercise-badge").first()).toBeVisible();

    await openDrawer(page, "training");
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByTestId("exercise-state")).toHaveText("running");
    await expect.poll(async () => (await exercise(request, id)).progress.released, { timeout: 10_000 }).toBeGreaterThan(paused);

    await page.getByRole("button", { name: "Stop" }).click();
    // Stopping closes the exercise's open calls (about 150 here) before it answers, saying so meanwhile:
    // on a loaded two-core machine that took more than the default 5 s.
    await expect(page.getByTestId("exercise-state")).toHaveText("stopped", { timeout: 20_000 });
    await expect(page.getByTestId("exercise-banner")).toHaveCount(0);
    // Its units stood down with it and left the board.
    await expect(page.locator(".unit-row .exercise-badge")).toHaveCount(0);
    const stopped = await exercise(request, id);
    expect(stopped.progress.released).toBeLessThan(300);
    await pause(3_000);
    expect((await exercise(request, id)).progress.released).toBe(stopped.progress.released);

    // The debrief page shows the exercise's released calls.
    await page.getByRole("link", { name: "Debrief" }).click();
    await expect(page.getByTestId("debrief-released")).toHaveText(String(stopped.progress.released));

    // Its calls left the live picture when it ended: the default counts equal those without exercises.
    expect(await openTotal(request, "")).toBe(await openTotal(request, "?exercises=hide"));
  });
});
