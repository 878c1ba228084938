import { apiRoute } from "@/lib/http/respond";
import { openApiResponse } from "@/lib/http/openapi";

export const dynamic = "force-dynamic";

export const GET = apiRoute("openapi", "GET", async ({ request }) => openApiResponse(request));
