import { apiRoute } from "@/lib/http/respond";
import { openApiResponse } from "@/lib/openapi";

export const dynamic = "force-dynamic";

export const GET = apiRoute("openapi", "GET", async ({ request }) => openApiResponse(request));
