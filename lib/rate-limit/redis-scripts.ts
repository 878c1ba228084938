import { createHash } from "node:crypto";
import type { Redis as UpstashRedis } from "@upstash/redis";
import type { RedisClient } from "../redis";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/**
 * @upstash/ratelimit's scripts start with `#!lua flags=allow-key-locking`, a shebang Redis 7.0
 * rejects ("Unexpected flag in script shebang"). The flag only matters to Redis Cluster, so the
 * line is dropped before the script reaches a plain Redis.
 */
export function stripScriptFlags(script: string): string {
  return script.replace(/^#!lua[^\n]*\n/, "");
}

/**
 * The two commands @upstash/ratelimit's fixed window needs (`evalsha`, then `eval` on NOSCRIPT),
 * answered by node-redis. Ratelimit asks by the hash of its original script; this keeps which
 * stripped script that hash stands for, so after the first `eval` each check is one EVALSHA.
 */
export class NodeRedisScripts {
  private readonly strippedSha = new Map<string, string>();

  constructor(private readonly client: () => Promise<RedisClient>) {}

  async eval(script: string, keys: string[], args: unknown[]): Promise<unknown> {
    const body = stripScriptFlags(script);
    const reply = await (await this.client()).eval(body, { keys, arguments: args.map(String) });
    this.strippedSha.set(sha1(script), sha1(body));
    return reply;
  }

  async evalsha(hash: string, keys: string[], args: unknown[]): Promise<unknown> {
    const sha = this.strippedSha.get(hash);
    // Ratelimit reacts to NOSCRIPT by sending the script itself.
    if (!sha) throw new Error("NOSCRIPT the stripped script is not loaded yet");
    return (await this.client()).evalSha(sha, { keys, arguments: args.map(String) });
  }

  /** Ratelimit's constructor is typed for @upstash/redis; these two methods are all it calls. */
  asUpstashRedis(): UpstashRedis {
    return this as unknown as UpstashRedis;
  }
}
