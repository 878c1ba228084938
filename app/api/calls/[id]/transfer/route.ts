import { apiRoute, json } from "@/lib/http/respond";
import { requestTransfer } from "@/lib/live-calls/transfer";

export const dynamic = "force-dynamic";

export const POST = apiRoute("callTransfer", "POST", async ({ params, body, actor }) => json(await requestTransfer(params.id, body, actor)));
