/**
 * A second app instance, in a process of its own on the same database, kept running: for each line
 * of request headers (JSON) on stdin, it opens GET /api/calls/stream through the real route handler
 * and prints `open <n>` once the stream is at the head (or `status <code>` when refused), then
 * `ended <n>` when the server ends it. So an access change made on another instance is seen to
 * reach streams open here.
 * Usage: tsx tests/support/instance-b-stream.ts, then one JSON object per line.
 */
import { createInterface } from "node:readline";
import { GET } from "@/app/api/calls/stream/route";
import { readEvents } from "./sse";

async function follow(n: number, headers: Record<string, string>): Promise<void> {
  const response = await GET(new Request("http://localhost/api/calls/stream", { headers }), undefined);
  if (response.status !== 200) return void console.log(`status ${response.status}`);
  const stream = readEvents(response.body!);
  await stream.until(() => stream.comments.some((comment) => comment.startsWith("connected")));
  console.log(`open ${n}`);
  await stream.ended(600_000);
  console.log(`ended ${n}`);
}

async function main(): Promise<void> {
  let n = 0;
  for await (const line of createInterface({ input: process.stdin })) {
    void follow(n++, JSON.parse(line) as Record<string, string>).catch((error: unknown) => console.error(error));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
