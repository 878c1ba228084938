import { invalidParameter } from "@/lib/http/api-error";
import { apiRoute } from "@/lib/http/respond";
import { parseQuery, streamQueryParameters } from "@/lib/live/schema";
import { openChangeStream } from "@/lib/live/stream";

export const dynamic = "force-dynamic";

export const GET = apiRoute("stream", async (request) => {
  const { after } = parseQuery(streamQueryParameters, new URL(request.url).searchParams);
  // A reconnecting EventSource sends the last id it received; it wins over the query fallback.
  const lastEventId = request.headers.get("last-event-id");
  if (lastEventId !== null && !/^\d{1,15}$/.test(lastEventId.trim())) {
    throw invalidParameter("Invalid parameter", "Last-Event-ID must be a change number");
  }
  const stream = openChangeStream({ after: lastEventId !== null ? Number(lastEventId) : after, signal: request.signal });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
});
