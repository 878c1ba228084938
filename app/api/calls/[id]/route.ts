import { getCall } from "@/lib/calls/detail";
import { updateCallStatus } from "@/lib/calls/status";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("call", "GET", async ({ params }) => json(await getCall(params.id)));

export const PATCH = apiRoute("call", "PATCH", async ({ params, body }) => json(await updateCallStatus(params.id, body.status)));
