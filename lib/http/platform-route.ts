import type { liveToolsRoute, webhookRoute } from "../voice-platforms/endpoints";
import { type Platform, PLATFORMS } from "../vocabulary";
import { ApiError } from "./api-error";
import { endpoints } from "./endpoints";
import { apiRoute, errorResponse } from "./respond";

/** A platform's endpoint a `[platform]` route may serve: its webhook or its live tools. */
type PlatformRoute = ReturnType<typeof webhookRoute<Platform>> | ReturnType<typeof liveToolsRoute<Platform>>;

type RouteHandler = ReturnType<typeof apiRoute>;

/**
 * The POST of a `[platform]` route (app/api/voiceagent-webhook/[platform], app/api/live-calls/[platform]):
 * each platform whose endpoint `route(platform)` has its name as its path's last segment
 * (/api/live-calls/vapi) answered by `work(platform)` behind that endpoint (apiRoute), so a platform's
 * path, schemas and operationId stay its own; any other name is 404 NOT_FOUND in the webhook's
 * error format (the platforms' endpoints' format). A static sibling (live-calls/tools) is Next's before this.
 */
export function platformRoute(
  route: (platform: Platform) => PlatformRoute,
  work: (platform: Platform) => (input: { request: Request }) => Promise<Response>,
): RouteHandler {
  const served = new Map(
    PLATFORMS.filter((platform) => endpoints[route(platform)].path.endsWith(`/${platform}`)).map(
      (platform) => [platform as string, apiRoute(route(platform), "POST", work(platform))] as const,
    ),
  );
  return async (request, context) => {
    const { platform } = (await context?.params) ?? {};
    const answer = typeof platform === "string" ? served.get(platform) : undefined;
    if (answer) return answer(request, context);
    return errorResponse(new ApiError("NOT_FOUND", "No voice-agent platform has an endpoint at this path"), "webhook");
  };
}
