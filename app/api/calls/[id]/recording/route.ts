import { openRecording } from "@/lib/calls/recording";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The call's recording as audio/mpeg, with HTTP range requests (an <audio> element seeks with them). */
export const GET = apiRoute("recording", "GET", async ({ request, params, actor }) => {
  const recording = await openRecording(params.id, request.headers.get("range"), actor);
  if (recording.kind === "unsatisfiable") {
    throw new ApiError("RANGE_NOT_SATISFIABLE", `The recording has ${recording.size} bytes`, {}, {
      headers: { "content-range": `bytes */${recording.size}` },
    });
  }
  const { start, end } = recording.range;
  const headers: Record<string, string> = {
    "content-type": recording.contentType,
    "content-length": String(end - start + 1),
    "accept-ranges": "bytes",
    "cache-control": "private, no-store",
  };
  if (recording.partial) headers["content-range"] = `bytes ${start}-${end}/${recording.size}`;
  return new Response(recording.body, { status: recording.partial ? 206 : 200, headers });
});
