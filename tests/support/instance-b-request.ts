/**
 * A second app instance, in a process of its own on the same database, kept running: for each line
 * of request headers (JSON) on stdin, one GET /api/calls through the real route handler; prints its
 * status. So what it remembers between requests (who a cookie or key is) is tested too.
 * Usage: tsx tests/support/instance-b-request.ts, then one JSON object per line.
 */
import { createInterface } from "node:readline";
import { GET } from "@/app/api/calls/route";

async function main(): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    const headers = JSON.parse(line) as Record<string, string>;
    const response = await GET(new Request("http://localhost/api/calls?limit=1", { headers }), undefined);
    console.log(`status ${response.status}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
