import { afterAll, beforeEach } from "vitest";
import { resetConfigForTests } from "@/lib/config";

/** Every test of the file runs with this webhook secret; the file's end restores the previous one. */
export function withWebhookSecret(secret: string): void {
  const original = process.env.VOICEAGENT_WEBHOOK_SECRET;
  beforeEach(() => {
    process.env.VOICEAGENT_WEBHOOK_SECRET = secret;
    resetConfigForTests();
  });
  afterAll(() => {
    if (original === undefined) delete process.env.VOICEAGENT_WEBHOOK_SECRET;
    else process.env.VOICEAGENT_WEBHOOK_SECRET = original;
    resetConfigForTests();
  });
}
