import { startStandInServer, type StandInServer } from "./stand-in-server";

/** What the stand-in does with one request. */
export type Answer =
  | { kind: "summary" }
  | { kind: "text"; text: string }
  | { kind: "status"; status: number; body: string }
  | { kind: "slow"; ms: number }
  | { kind: "raw"; body: string };

export interface SeenRequest {
  path: string;
  authorization?: string;
  body: Record<string, unknown>;
  prompt: string;
}

const addressIn = (prompt: string) => /Address: (.+)/.exec(prompt)?.[1] ?? "an unknown address";

/** The two dispatcher-style sentences a well-behaved model writes for a prompt naming `Address: ...`. */
export function modelSummaryFor(prompt: string): string {
  return `Caller at ${addressIn(prompt)} reported an emergency needing urgent help. Fire and EMS units have been dispatched.`;
}

/** Two sentences naming the address that say nothing of services dispatched: not the summary asked for. */
export function undispatchedSummaryFor(prompt: string): string {
  return `Caller at ${addressIn(prompt)} reported an emergency needing urgent help. The agent kept the caller on the line.`;
}

function promptOf(path: string, body: Record<string, unknown>): string {
  // OpenAI chat completions: messages[].content; Bedrock Converse: messages[].content[].text.
  const messages = (body.messages ?? []) as { role: string; content: string | { text?: string }[] }[];
  const user = messages.find((message) => message.role === "user");
  if (!user) return "";
  if (typeof user.content === "string") return user.content;
  return path.includes("/converse") ? user.content.map((part) => part.text ?? "").join("") : "";
}

function reply(path: string, model: string, text: string): string {
  if (path.includes("/converse")) {
    return JSON.stringify({
      output: { message: { role: "assistant", content: [{ text }] } },
      stopReason: "end_turn",
      usage: { inputTokens: 50, outputTokens: 30, totalTokens: 80 },
    });
  }
  return JSON.stringify({
    id: "chatcmpl-stand-in",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: 50, completion_tokens: 30, total_tokens: 80 },
  });
}

/**
 * A local stand-in for a hosted model on 127.0.0.1: answers OpenAI-compatible chat completions
 * and Bedrock Converse requests as `behaviour` says for the n-th request (n from 1).
 */
export class ModelStandIn {
  readonly requests: SeenRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Requests whose client closed the connection before their answer was sent. */
  abandoned = 0;
  private server?: StandInServer;

  constructor(public behaviour: (n: number, prompt: string) => Answer = () => ({ kind: "summary" })) {}

  async start(): Promise<string> {
    this.server = await startStandInServer(async (request, response) => {
      const path = `${request.url.pathname}${request.url.search}`;
      const body = JSON.parse(request.body.toString("utf8") || "{}") as Record<string, unknown>;
      const prompt = promptOf(path, body);
      this.requests.push({ path, authorization: request.headers.authorization, body, prompt });
      const answer = this.behaviour(this.requests.length, prompt);
      response.once("close", () => {
        if (!response.writableEnded) this.abandoned++;
      });
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      // Every answer takes a moment, so concurrent requests overlap.
      await new Promise((resolve) => setTimeout(resolve, answer.kind === "slow" ? answer.ms : 40));
      this.inFlight--;
      if (response.destroyed) return;
      const model = String(body.model ?? "");
      const [status, text] =
        answer.kind === "status" ? [answer.status, answer.body]
        : answer.kind === "raw" ? [200, answer.body]
        : [200, reply(path, model, answer.kind === "text" ? answer.text : modelSummaryFor(prompt))];
      response.writeHead(status, { "content-type": "application/json" }).end(text);
    });
    return this.server.url;
  }

  reset(behaviour: (n: number, prompt: string) => Answer): void {
    this.behaviour = behaviour;
    this.requests.length = 0;
    this.server?.requests.splice(0);
    this.maxInFlight = 0;
    this.abandoned = 0;
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}
