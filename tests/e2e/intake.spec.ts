import { expect, test } from "@playwright/test";
import { elevenLabsCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { vapiEndOfCallReport } from "@/lib/voice-platforms/vapi/sample-events";
import { signatureHeader } from "@/lib/voice-platforms/elevenlabs/signature";
import { E2E_VAPI_SECRET, E2E_WEBHOOK_SECRET } from "../../playwright.config";
import { silentMp3 } from "../support/mp3";
import { incidentOf, openDashboard, openDrawer, queuedIncident, tilesOffline } from "./dashboard-helpers";

/** The webhook's three event types, as a dispatcher sees them. */

const NUMBER = "+16155550142";

function callFrom(id: string, eventTimestamp: number, externalNumber: string | null) {
  const event = elevenLabsCallEvent(id, { eventTimestamp });
  const metadata = event.data.metadata as Record<string, unknown>;
  if (externalNumber === null) {
    metadata.phone_call = null;
    delete (event.data.conversation_initiation_client_data.dynamic_variables as Record<string, unknown>).system__caller_id;
  } else {
    metadata.phone_call = { ...event.data.metadata.phone_call, external_number: externalNumber };
  }
  return event;
}

test("a repeat caller's number, the earlier call, a 20 MB recording that plays, a web call and a failed call", async ({ page, request }) => {
  test.setTimeout(120_000);
  const now = Math.floor(Date.now() / 1000);
  const [first, second, web, failed] = ["e2e-caller-first", "e2e-caller-second", "e2e-web-call", "e2e-failed-call"];
  expect((await request.post("/api/voiceagent-webhook", { data: callFrom(first, now - 3600, "(615) 555-0142") })).status()).toBe(200);
  expect((await request.post("/api/voiceagent-webhook", { data: callFrom(second, now, NUMBER) })).status()).toBe(200);
  expect((await request.post("/api/voiceagent-webhook", { data: callFrom(web, now, null) })).status()).toBe(200);
  const failure = {
    type: "call_initiation_failure",
    event_timestamp: now,
    data: { agent_id: "agent_911", conversation_id: failed, failure_reason: "no-answer", metadata: { type: "twilio", body: { To: "+16155550199" } } },
  };
  expect((await request.post("/api/voiceagent-webhook", { data: failure })).status()).toBe(200);

  const audio = silentMp3(15 * 1024 * 1024); // 20 MB once base64-encoded
  const body = Buffer.from(JSON.stringify({ type: "post_call_audio", event_timestamp: now, data: { agent_id: "agent_911", conversation_id: second, full_audio: audio.toString("base64") } }));
  expect(body.length).toBeGreaterThan(20_000_000);
  // Signed: an unsigned post may create a call but never changes one, a recording's link included.
  const stored = await request.post("/api/voiceagent-webhook", {
    data: body,
    headers: { "content-type": "application/json", "elevenlabs-signature": signatureHeader(E2E_WEBHOOK_SECRET, body) },
  });
  expect(stored.status(), await stored.text()).toBe(200);

  const detail = await (await request.get(`/api/calls/${second}`)).json();
  expect(detail).toMatchObject({ caller_phone: NUMBER, recording: { size_bytes: audio.length, content_type: "audio/mpeg" } });
  expect(detail.other_calls_from_number).toEqual([expect.objectContaining({ conversation_id: first })]);
  const failedList = await (await request.get("/api/calls?status=failed")).json();
  expect(failedList.calls).toContainEqual(expect.objectContaining({ conversation_id: failed, failure_reason: "no-answer", caller_phone: "+16155550199" }));

  await tilesOffline(page);
  await openDashboard(page);
  // Each call's incident lists it with its caller's number (or "web call").
  for (const [id, caller] of [[second, NUMBER], [web, "web call"]]) {
    const { item } = await queuedIncident(page, request, id);
    await item.getByRole("button", { name: /show its calls/ }).click();
    await expect(page.locator(`.incident-detail .incident-call[data-call-id="${id}"] [data-testid="incident-call-caller"]`)).toHaveText(caller);
    await page.getByRole("button", { name: "Close incident details" }).click();
  }
  // A call that never connected is history, not work for the queue: its own incident is failed.
  const failedIncident = await incidentOf(request, failed);
  await expect(page.locator(`.queue-item[data-incident-id="${failedIncident}"]`)).toHaveCount(0);
  // The history of voice-agent calls only: other specs fill it with simulated ones.
  await openDrawer(page, "history");
  const filters = page.getByRole("form", { name: "History filters" });
  await filters.getByLabel("Table", { exact: true }).fill("calls");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.locator(`.history-table tr[data-call-id="${failed}"]`)).toBeVisible();

  await page.locator(`.history-table tr[data-call-id="${second}"]`).getByRole("button").click();
  const panel = page.locator(".call-detail");
  await expect(panel.getByTestId("detail-caller")).toHaveText(NUMBER);
  // A link the dispatcher's phone calls back.
  await expect(panel.getByTestId("detail-caller")).toHaveAttribute("href", `tel:${NUMBER}`);
  await expect(panel.getByRole("list", { name: `Other calls from ${NUMBER}` })).toContainText("Earlier call");
  await expect(panel.locator(`li[data-call-id="${first}"]`)).toBeVisible();

  // The recording plays through the authorised, ranged route.
  const player = panel.getByTestId("recording");
  await expect(player).toHaveAttribute("src", `/api/calls/${second}/recording`);
  await expect.poll(() => player.evaluate((element: HTMLAudioElement) => element.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  const duration = await player.evaluate((element: HTMLAudioElement) => element.duration);
  expect(duration).toBeGreaterThan(600);
  await player.evaluate(async (element: HTMLAudioElement) => {
    element.muted = true;
    element.currentTime = 300;
    await element.play();
  });
  await expect.poll(() => player.evaluate((element: HTMLAudioElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThan(300.2);
  expect(await player.evaluate((element: HTMLAudioElement) => element.error)).toBeNull();

  await page.locator(`.history-table tr[data-call-id="${web}"]`).getByRole("button").click();
  await expect(panel.getByTestId("detail-caller")).toHaveText("web call");
  expect(await panel.getByTestId("detail-caller").getAttribute("href")).toBeNull();
});

test("a Vapi call: its platform in the history and the call detail, filterable, with the platform's recording link", async ({ page, request }) => {
  const id = `e2e-vapi-${Date.now()}`;
  const report = vapiEndOfCallReport(id, { endedAt: Date.now() });
  const posted = await request.post("/api/voiceagent-webhook/vapi", { data: report, headers: { "x-vapi-secret": E2E_VAPI_SECRET } });
  expect(posted.status(), await posted.text()).toBe(200);

  await tilesOffline(page);
  await openDashboard(page);
  await openDrawer(page, "history");
  const filters = page.getByRole("form", { name: "History filters" });
  await filters.getByLabel("Platform").selectOption("vapi");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  const row = page.locator(`.history-table tr[data-call-id="vapi:${id}"]`);
  await expect(row).toContainText("Voice agent (Vapi)");
  // Only Vapi calls under the filter: the ElevenLabs calls of the other test are gone.
  await expect(page.locator(".history-table tbody tr")).toHaveCount(1);

  await row.getByRole("button").click();
  const panel = page.locator(".call-detail");
  await expect(panel.getByTestId("detail-platform")).toHaveText("Vapi");
  await expect(panel.getByTestId("recording-link")).toHaveAttribute("href", `https://storage.vapi.ai/${id}-mono.wav`);
});
