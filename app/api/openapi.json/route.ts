import { apiRoute, json } from "@/lib/http/respond";
import { buildOpenApiDocument } from "@/lib/openapi";

export const dynamic = "force-dynamic";

export const GET = apiRoute("openapi", async () => json(buildOpenApiDocument()));
