import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RedisClient } from "../../lib/redis";
import { stripScriptFlags } from "../../lib/rate-limit/redis-scripts";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

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

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Bearer ${token}`) return reply(401, { error: "Unauthorized" });
      const base64 = request.headers["upstash-encoding"] === "base64";
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const execute = async (command: string[]) => {
        try {
          return { result: encode(await run(command), base64) };
        } catch (error) {
          return { error: String(error instanceof Error ? error.message : error) };
        }
      };
      if (request.url?.startsWith("/pipeline")) return reply(200, await Promise.all((body as string[][]).map(execute)));
      const answer = await execute(body as string[]);
      reply("error" in answer ? 400 : 200, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    commands,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
