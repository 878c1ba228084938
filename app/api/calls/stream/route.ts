import { invalidParameter } from "@/lib/domain-error";
import { apiRoute } from "@/lib/http/respond";
import { lastEventIdSchema } from "@/lib/live/schema";
import { openChangeStream } from "@/lib/live/stream";

export const dynamic = "force-dynamic";

export const GET = apiRoute("stream", "GET", async ({ request, query }) => {
  // A reconnecting EventSource sends the last id it received; it wins over the query fallback.
  const header = request.headers.get("last-event-id");
  const lastEventId = header === null ? undefined : lastEventIdSchema.safeParse(header);
  if (lastEventId && !lastEventId.success) throw invalidParameter("Invalid cursor", "Last-Event-ID must be a change number");
  const stream = openChangeStream({ after: lastEventId?.data ?? query.after, signal: request.signal });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
});
