import { type Platform, PLATFORMS } from "../vocabulary";
import { elevenLabsEndpoints } from "./elevenlabs/endpoints";
import type { PlatformEndpoints } from "./platform";
import { retellEndpoints } from "./retell/endpoints";
import { vapiEndpoints } from "./vapi/endpoints";

/**
 * Each platform's two endpoints, declared in its folder (docs/webhook.md, "A fourth platform"):
 * lib/intake/endpoints.ts and lib/on-the-line/endpoints.ts compose them into the endpoint registry,
 * under the names below. Beside ./adapters.ts, not in it: a declaration loads no operation, and the
 * adapters load them all.
 */
export const platformEndpoints = {
  elevenlabs: elevenLabsEndpoints,
  vapi: vapiEndpoints,
  retell: retellEndpoints,
} satisfies Record<Platform, PlatformEndpoints>;

/** The registry's names of a platform's endpoints (lib/http/endpoints.ts): `vapiWebhook`, `vapiLiveTools`. */
export const webhookRoute = <P extends Platform>(platform: P) => `${platform}Webhook` as const;
export const liveToolsRoute = <P extends Platform>(platform: P) => `${platform}LiveTools` as const;

/** One entry per platform, named `name(platform)`: each platform's endpoint as intake or lib/on-the-line composes it. */
export function perPlatform<N extends string, V>(name: (platform: Platform) => N, value: (platform: Platform) => V): Record<N, V> {
  return Object.fromEntries(PLATFORMS.map((platform) => [name(platform), value(platform)])) as Record<N, V>;
}
