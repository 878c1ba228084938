import { createHash } from "node:crypto";
import type { RedisClient } from "../../lib/redis";
import { sendJson, startStandInServer } from "./stand-in-server";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/** @upstash/ratelimit's `#!lua flags=allow-key-locking` line, which Redis 7.0 rejects. */
const stripScriptFlags = (script: string) => script.replace(/^#!lua[^\n]*\n/, "");

/**
 * Upstash's REST interface (POST a command as a JSON array, answer {result} or {error}), served on
 * 127.0.0.1 over a real Redis. Like Upstash it accepts the scripts' shebang flags, which it strips
 * for Redis 7.0, and answers EVALSHA by the hash of the script as sent.
 */
export async function startUpstashStandIn(redis: RedisClient, token: string): Promise<{ url: string; commands: string[][]; close(): Promise<void> }> {
  const strippedSha = new Map<string, string>();
  const commands: string[][] = [];
  const encode = (value: unknown, base64: boolean): unknown =>
    Array.isArray(value) ? value.map((item) => encode(item, base64)) : base64 && typeof value === "string" ? Buffer.from(value).toString("base64") : value;

  async function run(command: string[]): Promise<unknown> {
    const [name, ...args] = command.map(String);
    commands.push([name, ...args]);
    if (name.toUpperCase() === "EVAL") {
      const stripped = stripScriptFlags(args[0]);
      strippedSha.set(sha1(args[0]), sha1(stripped));
      args[0] = stripped;
    } else if (name.toUpperCase() === "EVALSHA") {
      args[0] = strippedSha.get(args[0]) ?? args[0];
    }
    return redis.sendCommand([name, ...args]);
  }

  const server = await startStandInServer(async (request, response) => {
    if (request.headers.authorization !== `Bearer ${token}`) return sendJson(response, 401, { error: "Unauthorized" });
    const base64 = request.headers["upstash-encoding"] === "base64";
    const body = JSON.parse(request.body.toString("utf8"));
    const execute = async (command: string[]) => {
      try {
        return { result: encode(await run(command), base64) };
      } catch (error) {
        return { error: String(error instanceof Error ? error.message : error) };
      }
    };
    if (request.url.pathname.startsWith("/pipeline")) return sendJson(response, 200, await Promise.all((body as string[][]).map(execute)));
    const answer = await execute(body as string[]);
    sendJson(response, "error" in answer ? 400 : 200, answer);
  });
  return { url: server.url, commands, close: server.close };
}
