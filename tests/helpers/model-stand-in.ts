import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

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

/** The two sentences a well-behaved model writes for a prompt naming `Address: ...`. */
export function modelSummaryFor(prompt: string): string {
  const address = /Address: (.+)/.exec(prompt)?.[1] ?? "an unknown address";
  return `Caller at ${address} reported an emergency needing urgent help. Fire and EMS units have been dispatched.`;
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

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
}

/**
 * A local stand-in for a hosted model on 127.0.0.1: answers OpenAI-compatible chat completions
 * and Bedrock Converse requests as `behaviour` says for the n-th request (n from 1).
 */
export class ModelStandIn {
  readonly requests: SeenRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private server?: Server;

  constructor(public behaviour: (n: number, prompt: string) => Answer = () => ({ kind: "summary" })) {}

  async start(): Promise<string> {
    this.server = createServer(async (request, response) => {
      const path = request.url ?? "";
      const body = await readBody(request);
      const prompt = promptOf(path, body);
      this.requests.push({ path, authorization: request.headers.authorization, body, prompt });
      const answer = this.behaviour(this.requests.length, prompt);
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      // Every answer takes a moment, so concurrent requests overlap.
      await new Promise((resolve) => setTimeout(resolve, answer.kind === "slow" ? answer.ms : 40));
      this.inFlight--;
      if (response.destroyed) return;
      const model = String(body.model ?? "");
      switch (answer.kind) {
        case "summary":
        case "slow":
          response.writeHead(200, { "content-type": "application/json" }).end(reply(path, model, modelSummaryFor(prompt)));
          return;
        case "text":
          response.writeHead(200, { "content-type": "application/json" }).end(reply(path, model, answer.text));
          return;
        case "status":
          response.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
          return;
        case "raw":
          response.writeHead(200, { "content-type": "application/json" }).end(answer.body);
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(behaviour: (n: number, prompt: string) => Answer): void {
    this.behaviour = behaviour;
    this.requests.length = 0;
    this.maxInFlight = 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
