import { apiRoute, json } from "@/lib/http/respond";
import { setResponsePlan } from "@/lib/units/plans";

export const dynamic = "force-dynamic";

export const PUT = apiRoute("responsePlan", "PUT", async ({ params, body, actor }) =>
  json(await setResponsePlan(params.emergency_type, params.severity, body, actor)),
);
