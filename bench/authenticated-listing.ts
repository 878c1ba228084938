/**
 * What knowing who asks costs a listing: GET /api/calls on the production server (`npm run build`
 * first) over 100,000 stored calls, sequentially, with each credential the build accepts:
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/authenticated-listing.ts
 *
 * API_KEY as a Bearer key (compared in memory), a scoped key (looked up in api_keys each request)
 * and a person's session cookie (better-auth reads the session and the person each request). On a
 * build without accounts (issue 23's baseline) only API_KEY is measured, so the same file run in a
 * checkout of the earlier commit gives the "before" figure. Rounds alternate the credentials, so a
 * drift of the shared machine hits each alike. Requests come from 200 documentation addresses
 * (TRUST_PROXY=1): the per-client limit stays on but is not what is measured.
 */
import { loadavg } from "node:os";
import { BENCH_ADMIN as ADMIN, BENCH_API_KEY as API_KEY, startProductionServer } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const ROWS = 100_000;
const ROUNDS = 8;
const PER_ROUND = 250;
const QUERIES = ["/api/calls", "/api/calls?severity=critical&status=active"];

let address = 0;
const clientHeaders = (credential: Record<string, string>) => ({ ...credential, "x-forwarded-for": `198.51.100.${(address++ % 200) + 1}` });

/** Credentials the running build accepts, by label. */
async function credentials(base: string): Promise<Map<string, Record<string, string>>> {
  const found = new Map<string, Record<string, string>>([["API_KEY (Bearer)", { authorization: `Bearer ${API_KEY}` }]]);
  if ((await fetch(`${base}/api/setup`)).status === 404) return found; // a build before accounts
  const signIn = await fetch(`${base}/api/session`, { method: "POST", headers: { "content-type": "application/json", ...clientHeaders({}) }, body: JSON.stringify(ADMIN) });
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers.getSetCookie().map((value) => value.split(";")[0]).join("; ");
  const created = await fetch(`${base}/api/keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` },
    body: JSON.stringify({ name: "bench reader", scopes: ["read"] }),
  });
  if (created.status !== 201) throw new Error(`key: ${created.status} ${await created.text()}`);
  const { key } = (await created.json()) as { key: string };
  found.set("scoped key (Bearer mdk_)", { authorization: `Bearer ${key}` });
  found.set("session cookie (person)", { cookie, "sec-fetch-site": "same-origin" });
  return found;
}

async function timed(base: string, path: string, credential: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: clientHeaders(credential) });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return elapsed;
}

async function main(): Promise<void> {
  await withScratchClient(server, async (client, url) => {
    await seed(client, 1, ROWS);
    await client.query("VACUUM ANALYZE");
    const app = await startProductionServer(3930, { DATABASE_URL: url, TRUST_PROXY: "1" });
    try {
      const byLabel = await credentials(app.base);
      const samples = new Map<string, number[]>([...byLabel.keys()].flatMap((label) => QUERIES.map((query) => [`${label} ${query}`, []] as [string, number[]])));
      for (const credential of byLabel.values()) for (const query of QUERIES) for (let i = 0; i < 50; i++) await timed(app.base, query, credential); // warm-up
      const load = loadavg()[0];
      for (let round = 0; round < ROUNDS; round++) {
        for (const [label, credential] of byLabel) {
          for (const query of QUERIES) {
            const times = samples.get(`${label} ${query}`)!;
            for (let i = 0; i < PER_ROUND / QUERIES.length; i++) times.push(await timed(app.base, query, credential));
          }
        }
      }
      console.log(`${ROWS} calls, ${ROUNDS} rounds, load average ${load.toFixed(2)} before`);
      console.log("| credential and listing | requests | p50 ms | p90 ms | p99 ms |");
      console.log("|---|---|---|---|---|");
      for (const [name, times] of samples) {
        times.sort((a, b) => a - b);
        const at = (q: number) => percentile(times, q).toFixed(2);
        console.log(`| ${name} | ${times.length} | ${at(0.5)} | ${at(0.9)} | ${at(0.99)} |`);
      }
    } finally {
      app.stop();
    }
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
