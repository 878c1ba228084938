import { viewCall } from "@/lib/calls/detail";
import { updateCallStatus } from "@/lib/calls/status";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("call", "GET", async ({ params, actor }) => json(await viewCall(params.id, actor)));

export const PATCH = apiRoute("call", "PATCH", async ({ params, body, actor }) => json(await updateCallStatus(params.id, body.status, actor)));
