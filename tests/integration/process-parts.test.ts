import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { existingPart, stopProcessParts } from "@/lib/process-parts";
import { postSimulate } from "../support/simulate-request";
import { POST as postWebhook } from "@/app/api/voiceagent-webhook/route";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";

/**
 * A test file's teardown, and a server's stop, remove or hand over the data directory once
 * stopProcessParts() resolves: nothing the app started may open the database again or write into
 * the directory afterwards (a text index merge is due a second after a write, the grouper
 * gathers for 100 ms, the file writer's thread may hold a payload).
 */
describe("stopping the process's parts", () => {
  it("leaves nothing that writes into the data directory once it resolves, right after writes", async () => {
    const dataDir = getConfig().DATA_DIR;
    const simulated = await postSimulate({ scenario: "hurricane_florida", num_calls: 50, table_name: "stop-calls" });
    expect(simulated.status).toBe(200);
    const webhook = await postWebhook(webhookRequest(specCallEvent("stop-1")), undefined);
    expect(webhook.status).toBe(200);
    expect(existingPart("database")).toBeDefined();

    await stopProcessParts();
    await rm(dataDir, { recursive: true });
    // Past the text index upkeep's delay (1 s) and the grouper's gathering (100 ms).
    await sleep(1_500);

    expect(existsSync(dataDir)).toBe(false);
    expect(existingPart("database")).toBeUndefined();
  });
});
