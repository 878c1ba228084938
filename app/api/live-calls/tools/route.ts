import { apiRoute, json } from "@/lib/http/respond";
import { liveToolsDocument } from "@/lib/on-the-line/schema";

/** The live tools' definitions, to paste into the agent (docs/webhook.md, "Live calls"). */
export const GET = apiRoute("liveToolDefinitions", "GET", () => json(liveToolsDocument));
