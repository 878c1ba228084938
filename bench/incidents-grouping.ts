/**
 * Grouping quality: simulates CALLS calls with duplicates (the simulator's default share, about
 * 30%) and compares the incidents they were grouped into with the events the simulator says they
 * report (calls.simulated_event), with the default D and T.
 *
 *   npx tsx bench/incidents-grouping.ts   (server: BENCH_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/test)
 *   CALLS=10000 REQUEST_SIZE=100 GAP_MINUTES=90 npx tsx bench/incidents-grouping.ts
 *
 * Requests of REQUEST_SIZE calls go through runSimulation (what POST /api/simulate runs), cycling
 * through the scenarios, each GAP_MINUTES after the one before in simulated time. Printed, computed
 * in SQL over every stored call:
 * - B-cubed precision: per call, the share of its incident's calls that report its event; averaged.
 * - B-cubed recall: per call, the share of its event's calls that are in its incident; averaged.
 * - pairwise precision and recall: over pairs of calls in one incident / reporting one event.
 * - per rule (docs/incidents.md, "Grouping"): the calls each rule joined to an earlier call's incident
 *   (the same callback number, the same normalised address, else the distance of an emergency of a
 *   place), and the possible duplicates marked, with how many of them pair calls of one event.
 * Quality only, no timing: it runs in-process on a scratch database.
 */
import { API_KEY_ACTOR } from "../lib/access/actor";
import { getDb } from "../lib/db/client";
import { groupNow } from "../lib/incidents/grouper";
import { SCENARIO_IDS } from "../lib/scenarios/scenario-list";
import { parseSimulateRequest, runSimulation } from "../lib/simulation";
import { withScratchClient } from "./scratch-database";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const totalCalls = Number(process.env.CALLS ?? 10_000);
const requestSize = Number(process.env.REQUEST_SIZE ?? 100);
const gapMinutes = Number(process.env.GAP_MINUTES ?? 90);

interface Quality {
  calls: string;
  incidents: string;
  events: string;
  b3_precision: number;
  b3_recall: number;
  pair_precision: number | null;
  pair_recall: number | null;
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= "warn";
  for (const variable of ["AI_PROVIDER", "AI_BASE_URL", "AI_MODEL", "INCIDENT_GROUPING"]) delete process.env[variable];
  await withScratchClient(server, async (client) => {
    await getDb();
    const start = Date.UTC(2026, 0, 1);
    let requests = 0;
    for (let stored = 0; stored < totalCalls; stored += requestSize) {
      const scenario = SCENARIO_IDS[requests % SCENARIO_IDS.length];
      const request = parseSimulateRequest({
        scenario,
        num_calls: Math.min(requestSize, totalCalls - stored),
        seed: requests + 1,
        table_name: "grouping_bench",
      });
      const now = new Date(start + requests * gapMinutes * 60_000);
      const result = await runSimulation(request, API_KEY_ACTOR, { now: () => now });
      if (result.failed > 0) throw new Error(`request ${requests} failed ${result.failed} calls`);
      // As a server would between two requests: the grouper places this request's calls.
      await groupNow();
      requests++;
    }
    const { rows } = await client.query<Quality>(`
      WITH c AS (SELECT incident_id AS i, simulated_event AS e FROM calls WHERE table_name = 'grouping_bench'),
      both_ AS (SELECT i, e, count(*)::float8 AS n FROM c GROUP BY i, e),
      by_incident AS (SELECT i, count(*)::float8 AS n FROM c GROUP BY i),
      by_event AS (SELECT e, count(*)::float8 AS n FROM c GROUP BY e)
      SELECT (SELECT count(*) FROM c) AS calls,
        (SELECT count(*) FROM by_incident) AS incidents,
        (SELECT count(*) FROM by_event) AS events,
        (SELECT sum(b.n * b.n / bi.n) FROM both_ b JOIN by_incident bi USING (i)) / (SELECT count(*) FROM c) AS b3_precision,
        (SELECT sum(b.n * b.n / be.n) FROM both_ b JOIN by_event be USING (e)) / (SELECT count(*) FROM c) AS b3_recall,
        (SELECT sum(n * (n - 1) / 2) FROM both_) / NULLIF((SELECT sum(n * (n - 1) / 2) FROM by_incident), 0) AS pair_precision,
        (SELECT sum(n * (n - 1) / 2) FROM both_) / NULLIF((SELECT sum(n * (n - 1) / 2) FROM by_event), 0) AS pair_recall`);
    const quality = rows[0];
    const [{ exact }] = (await client.query<{ exact: boolean }>(`
      SELECT bool_and(i.call_count = (SELECT count(*) FROM calls c WHERE c.incident_id = i.id)) AS exact FROM incidents i`)).rows;
    const [rules] = (await client.query<{ joined: string; callback: string; address: string; distance: string; marked: string; marked_same: string }>(`
      WITH c AS (
        SELECT k.id, k.incident_id, k.caller_phone, incident_location_key(k.location) AS key, i.location_key,
          k.occurred_at > i.first_call_at OR k.id <> (SELECT f.id FROM calls f WHERE f.incident_id = k.incident_id ORDER BY f.occurred_at, f.id LIMIT 1) AS joined,
          EXISTS (SELECT 1 FROM calls o WHERE o.incident_id = k.incident_id AND o.id <> k.id AND (o.occurred_at, o.id) < (k.occurred_at, k.id)
            AND callback_number(k.caller_phone) AND o.caller_phone = k.caller_phone) AS by_callback
        FROM calls k JOIN incidents i ON i.id = k.incident_id WHERE k.table_name = 'grouping_bench'
      ), m AS (
        SELECT d.*, EXISTS (SELECT 1 FROM calls a JOIN calls b ON b.simulated_event = a.simulated_event
          WHERE a.incident_id = d.incident_id AND b.incident_id = d.other_id) AS same_event
        FROM incident_duplicates d
      )
      SELECT count(*) FILTER (WHERE joined) AS joined,
        count(*) FILTER (WHERE joined AND by_callback) AS callback,
        count(*) FILTER (WHERE joined AND NOT by_callback AND key <> '' AND key = location_key) AS address,
        count(*) FILTER (WHERE joined AND NOT by_callback AND NOT (key <> '' AND key = location_key)) AS distance,
        (SELECT count(*) FROM m) AS marked, (SELECT count(*) FROM m WHERE same_event) AS marked_same
      FROM c`)).rows;
    const figure = (value: number | null) => (value === null ? "n/a" : value.toFixed(4));
    console.log(
      `grouping of ${quality.calls} simulated calls (${requests} requests of ${requestSize}, ${gapMinutes} min apart, default D 250 m, T 60 min): ` +
        `${quality.events} events, ${quality.incidents} incidents\n` +
        `  B-cubed precision ${figure(quality.b3_precision)}, recall ${figure(quality.b3_recall)}\n` +
        `  pairwise precision ${figure(quality.pair_precision)}, recall ${figure(quality.pair_recall)}\n` +
        `  incident call counts exact: ${exact}\n` +
        `  joined to an earlier call's incident: ${rules.joined} (callback number ${rules.callback}, same address ${rules.address}, ` +
        `distance of an emergency of a place ${rules.distance}); possible duplicates marked: ${rules.marked} pairs ` +
        `(${rules.marked_same} of them calls of one event)`,
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
