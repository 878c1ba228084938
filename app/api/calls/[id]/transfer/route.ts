import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { requestTransfer } from "@/lib/on-the-line/transfer";

export const dynamic = "force-dynamic";

export const POST = apiRoute("callTransfer", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await requestTransfer(params.id, body, actor), (transfer) => ({ id: transfer.call_id, changed: ["transfer"] }))),
);
