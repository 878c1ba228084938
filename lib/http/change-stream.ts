import { whileAllowed } from "../access/access-watch";
import { invalidParameter } from "../domain-error";
import type { FeedPosition } from "../feed";
import { lastEventIdSchema } from "../board/schema";
import { openChangeStream } from "../board/change-stream";
import { acceptsGzip, gzipEventStream } from "./compressed-stream";
import { endpoints } from "./endpoints";

/**
 * GET /api/calls/stream once protected: the work of its route file (Next) and of the production
 * server's direct path (lib/http/direct-answers.ts). Only the direct path can send it gzipped: Next
 * drops a route's Content-Encoding header. The stream ends once the credential that opened it may no
 * longer read (lib/access/access-watch.ts).
 */
export function openStreamAnswer(headers: Headers, after: FeedPosition | undefined, signal: AbortSignal, compress: boolean) {
  // A reconnecting EventSource sends the last id it received; it wins over the query fallback.
  const header = headers.get("last-event-id");
  const lastEventId = header === null ? undefined : lastEventIdSchema.safeParse(header);
  if (lastEventId && !lastEventId.success) throw invalidParameter("Invalid cursor", "Last-Event-ID must be a change number");
  const allowed = whileAllowed(headers, endpoints.stream.methods.GET.permission, signal);
  const stream = openChangeStream({ after: lastEventId?.data ?? after, signal: allowed });
  const gzip = compress && acceptsGzip(headers);
  return {
    body: gzip ? gzipEventStream(stream) : stream,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      vary: "accept-encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    },
  };
}
