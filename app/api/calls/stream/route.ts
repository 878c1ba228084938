import { openStreamAnswer } from "@/lib/http/change-stream";
import { apiRoute } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** The production server answers this endpoint itself, gzipped (lib/http/direct-answers.ts); this file serves it under `next dev` and `next start`. */
export const GET = apiRoute("stream", "GET", async ({ request, query }) => {
  const { body, headers } = openStreamAnswer(request.headers, query.after, request.signal, false);
  return new Response(body, { headers });
});
