/**
 * A second app instance, in a process of its own on the same database: one GET /api/calls through
 * the real route handler with the given headers; prints the status. Usage:
 * tsx tests/support/instance-b-request.ts '<headers as JSON>'
 */
import { GET } from "@/app/api/calls/route";
import { closeDb } from "@/lib/db/client";

async function main(headers: Record<string, string>): Promise<void> {
  const response = await GET(new Request("http://localhost/api/calls?limit=1", { headers }), undefined);
  await closeDb();
  console.log(response.status);
}

main(JSON.parse(process.argv[2] ?? "{}") as Record<string, string>).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
