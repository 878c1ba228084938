import { getCall } from "@/lib/calls/detail";
import { parseStatusUpdate } from "@/lib/calls/schema";
import { updateCallStatus } from "@/lib/calls/status";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

interface Context {
  params: Promise<{ id: string }>;
}

export const GET = apiRoute<Context>("call", async (_request, { params }) => {
  const { id } = await params;
  return json(await getCall(id));
});

export const PATCH = apiRoute<Context>("call", async (request, { params }) => {
  const { id } = await params;
  const { status } = parseStatusUpdate(await readJsonBody(request));
  return json(await updateCallStatus(id, status));
});
