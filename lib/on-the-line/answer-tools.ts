import { rememberControlUrl } from "../calls/control-urls";
import { getConfig } from "../config";
import { parseJson } from "../domain-error";
import { log } from "../log";
import { payloadTooLarge, readRequestBody } from "../request-body/read";
import type { Platform } from "../vocabulary";
import { platformAdapters } from "../voice-platforms/adapters";
import { type Fields, missingFields } from "../voice-platforms/fields";
import { WEBHOOK_MAX_BODY_BYTES } from "../voice-platforms/limits";
import { isLiveTool, type LiveCallIdentity, LIVE_TOOLS, type LiveTool, type ToolResult } from "../voice-platforms/tools";
import { liveStatus, type LiveStatus } from "./incident-status";
import { reportEmergency } from "./report-emergency";

/**
 * The live tools' endpoints, one per platform in its own wire format (docs/webhook.md, "Live
 * calls"; each platform's tools.ts in lib/voice-platforms): the platform's credential checked as
 * intake checks it, the headers before the body is read and the body as it is read (the one body
 * reader, lib/request-body/read.ts), then which call and which tools, run in order, and the answer
 * in the form the platform hands to its agent. Nothing is stored before the credential checked out.
 */

export interface LiveDelivery {
  headers: Headers;
  /** The body exactly as received: the credential may cover these bytes. */
  body: AsyncIterable<Uint8Array>;
}

/** One tool call, whichever tool: the answer the platform hands back to the agent. */
function runLiveTool(tool: LiveTool, call: LiveCallIdentity, args: Fields): Promise<LiveStatus> {
  return tool === "report_emergency" ? reportEmergency(call, args) : liveStatus(call.conversationId);
}

/**
 * The platform's tool request answered. A platform that heeds no status but 200 (Vapi) gets an
 * unknown or failed tool call as an `error` in its answer (the log says why); the others get 400
 * MISSING_FIELDS for an unknown tool and the failure's own error. `tool` is the tool the URL names.
 */
export async function answerLiveTools(platform: Platform, delivery: LiveDelivery, tool?: LiveTool): Promise<unknown> {
  const { tools } = platformAdapters[platform];
  const check = tools.startCheck(delivery.headers, getConfig());
  const limits = { memoryBytes: WEBHOOK_MAX_BODY_BYTES, maxBytes: WEBHOOK_MAX_BODY_BYTES };
  const body = await readRequestBody(delivery.body, limits, (chunk) => check.update(chunk));
  if (body.kind !== "memory") {
    // Never: with memoryBytes at maxBytes, a body that would be spooled is refused while it is read.
    await body.cleanup();
    throw payloadTooLarge(`Request body exceeds ${WEBHOOK_MAX_BODY_BYTES} bytes`);
  }
  check.verify();
  const request = tools.read(parseJson(body.bytes, "replace"), tool);
  if (request === null) return tools.answer([]);
  const results: ToolResult[] = [];
  // In order: a report and the status asked after it in the same message see the report.
  for (const call of request.calls) {
    if (!isLiveTool(call.name)) {
      if (!tools.answersFailures) throw missingFields([`name (${LIVE_TOOLS.join(" or ")})`]);
      results.push({ call, error: `Unknown tool: Mayday's tools are ${LIVE_TOOLS.join(" and ")}` });
      continue;
    }
    try {
      results.push({ call, answer: await runLiveTool(call.name, request.identity, call.args) });
    } catch (error) {
      if (!tools.answersFailures) throw error;
      log.error({ err: error, conversationId: request.identity.conversationId, tool: call.name }, "live tool call failed");
      results.push({ call, error: "The dispatch centre could not take this now: keep the caller on the line and try again" });
    }
  }
  // After the tools: a report may just have stored the call the URL belongs to.
  if (request.controlUrl !== undefined) {
    await rememberControlUrl(request.identity.conversationId, request.controlUrl).catch((error: unknown) => {
      log.warn({ err: error, conversationId: request.identity.conversationId }, "live control URL not kept");
    });
  }
  return tools.answer(results);
}
