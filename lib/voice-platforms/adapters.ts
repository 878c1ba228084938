import type { Platform } from "../vocabulary";
import { elevenLabs } from "./elevenlabs/adapter";
import type { PlatformAdapter } from "./platform";
import { retell } from "./retell/adapter";
import { vapi } from "./vapi/adapter";

export type { PlatformAdapter } from "./platform";

/**
 * The voice-agent platforms intake and lib/on-the-line run, one adapter each (docs/webhook.md,
 * "A fourth platform"): with its endpoints in ./endpoints.ts and its secrets in lib/config.ts, a
 * platform's whole registration.
 */
export const platformAdapters: Record<Platform, PlatformAdapter> = {
  elevenlabs: elevenLabs,
  vapi,
  retell,
};
