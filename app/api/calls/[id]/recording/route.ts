import { openRecording } from "@/lib/calls/recording";
import { apiRoute } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

interface Context {
  params: Promise<{ id: string }>;
}

/** The call's recording as audio/mpeg, with HTTP range requests (an <audio> element seeks with them). */
export const GET = apiRoute<Context>("recording", async (request, { params }) => {
  const { id } = await params;
  const recording = await openRecording(id, request.headers.get("range"));
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
