import { whoAmI } from "@/lib/access/people";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("me", "GET", async ({ actor }) => json(await whoAmI(actor)));
