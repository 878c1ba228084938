import { afterAll, beforeAll, beforeEach } from "vitest";
import { resetConfigForTests } from "@/lib/config";

/**
 * Every test of the file runs with this webhook secret, and so do the file's beforeAll hooks
 * registered after this call; the file's end restores the previous one.
 */
export function withWebhookSecret(secret: string): void {
  const original = process.env.VOICEAGENT_WEBHOOK_SECRET;
  const set = () => {
    process.env.VOICEAGENT_WEBHOOK_SECRET = secret;
    resetConfigForTests();
  };
  beforeAll(set);
  beforeEach(set);
  afterAll(() => {
    if (original === undefined) delete process.env.VOICEAGENT_WEBHOOK_SECRET;
    else process.env.VOICEAGENT_WEBHOOK_SECRET = original;
    resetConfigForTests();
  });
}
