import { POST as liveToolsPost } from "@/app/api/live-calls/[platform]/route";
import { POST as webhookPost } from "@/app/api/voiceagent-webhook/[platform]/route";

/** A route's POST as the tests call it, with or without Next's context. */
type Post = (request: Request, context?: unknown) => Promise<Response>;

/** A `[platform]` route's POST as Next calls it for /…/<platform>: the path's platform in its params. */
const at = (post: typeof webhookPost, platform: string): Post => (request) => post(request, { params: Promise.resolve({ platform }) });

/** POST /api/voiceagent-webhook/<platform> (app/api/voiceagent-webhook/[platform]/route.ts). */
export const webhookPostAt = (platform: string) => at(webhookPost, platform);

/** POST /api/live-calls/<platform> (app/api/live-calls/[platform]/route.ts). */
export const liveToolsPostAt = (platform: string) => at(liveToolsPost, platform);
