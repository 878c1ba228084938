/**
 * GET /api/openapi.json throughput on a production build: 32 keep-alive connections for 10 s
 * (acceptance: at least 2,000 requests a second).
 *
 *   npm run build && BENCH_PORT=3101 npx tsx bench/openapi.ts [--connections 32] [--seconds 10] [--url http://...]
 *
 * Without --url it starts the production server itself (bench/production-server.ts, embedded
 * database: the document needs none). A plain node:http loop, one request in flight per
 * connection; the client shares the machine's cores with the server, so the figure is a lower bound.
 */
import { Agent, request } from "node:http";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { startProductionServer } from "./production-server";
import { percentile } from "./stats";

const { values } = parseArgs({
  options: {
    connections: { type: "string", default: "32" },
    seconds: { type: "string", default: "10" },
    url: { type: "string" },
  },
});
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const port = Number(process.env.BENCH_PORT ?? process.env.E2E_PORT ?? 3101);

function get(agent: Agent, url: URL, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function load(url: URL, durationMs: number, headers: Record<string, string> = {}, cpuSeconds = () => NaN) {
  const cpuBefore = cpuSeconds();
  const clientBefore = process.cpuUsage();
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        const { status } = await get(agent, url, headers);
        latencies.push(performance.now() - sent);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuMs = (cpuSeconds() - cpuBefore) * 1000;
  const client = process.cpuUsage(clientBefore);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: Math.round(latencies.length / elapsed),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    statuses: Object.fromEntries(statuses),
    /** Server CPU per request: what the figure would be without other load on the machine. */
    cpuMsPerRequest: cpuMs / latencies.length,
    clientCpuMsPerRequest: (client.user + client.system) / 1000 / latencies.length,
  };
}

async function main(): Promise<void> {
  const app = values.url ? undefined : await startProductionServer(port, { DATABASE_URL: "" });
  const base = values.url ?? app!.base;
  try {
    const url = new URL("/api/openapi.json", base);
    const first = await fetch(url);
    const etag = first.headers.get("etag") ?? "";
    console.log(`document: ${(await first.text()).length} bytes, ETag ${etag}`);
    await load(url, 2_000); // warm-up
    for (const [label, headers] of [["200 (full document)", {}], ["304 (If-None-Match)", { "if-none-match": etag }]] as const) {
      const result = await load(url, seconds * 1000, headers, app?.cpuSeconds);
      console.log(
        `${label}: ${result.perSecond} req/s over ${seconds} s, ${connections} connections; ` +
          `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms; CPU per request: server ` +
          `${result.cpuMsPerRequest.toFixed(2)} ms, this client ${result.clientCpuMsPerRequest.toFixed(2)} ms; statuses ${JSON.stringify(result.statuses)}; load average ${loadavg()[0].toFixed(1)}`,
      );
    }
  } finally {
    app?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
