import type { Platform } from "../vocabulary";
import { elevenLabs } from "./elevenlabs/adapter";
import type { PlatformAdapter } from "./platform";
import { retell } from "./retell/adapter";
import { vapi } from "./vapi/adapter";

export type { PlatformAdapter } from "./platform";

/**
 * The voice-agent platforms intake takes post-call events from, one adapter each
 * (docs/webhook.md). Each has its endpoint in lib/intake/endpoints.ts (lib/http/webhook.ts
 * names it) and its secret in lib/config.ts.
 */
export const platformAdapters: Record<Platform, PlatformAdapter> = {
  elevenlabs: elevenLabs,
  vapi,
  retell,
};
