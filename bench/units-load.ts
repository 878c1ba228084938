/**
 * Units under load over two instances (issue 39, acceptance 1): two production instances over one
 * scratch database with 1,000 open incidents and a roster of 500 units (imported as CSV), 50
 * dashboards' change streams (25 on each instance, the bench's administrator key):
 *
 *   npm run build && BENCH_PORT=3105 npx tsx bench/units-load.ts
 *
 * 1. Latency: 100 unit state changes, one every 250 ms, alternately through A and B (a unit out of
 *    service, then back): from the request until each of the 50 streams carries the unit in its
 *    new state; p50, p95, max over the 5,000 arrivals, and none missed.
 * 2. Concurrency: 1,000 requests at once, half through each instance, from 200 client addresses
 *    (behind a trusted proxy: the limits stay on): 500 assignments of a random unit to a random
 *    incident (never confirmed) and 500 state reports of random units (en route, on scene,
 *    available). Then, in SQL: no unit with two open assignments; no assignment made without
 *    confirmation to a unit that was not free; each unit's incident and state agreeing with its
 *    open assignment; every incident with units in the status its units imply (an open
 *    assignment: dispatched or en route; all cleared: en route or resolved, never dispatched).
 * BENCH_DATABASE_URL names the server the scratch database is made on.
 */
import { arrivals, openChangeStream } from "./change-stream";
import { benchAuth, withTwoInstances } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { seedIncidents } from "./seed-incidents";
import { loadAverage, percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const portA = Number(process.env.BENCH_PORT ?? 3105);
const UNITS = 500;
const INCIDENTS = 1_000;
const STREAMS = 50;
const CHANGES = 100;
const CONCURRENT = 1_000;
const GIVE_UP_MS = 10_000;

interface UnitChange { unit: { id: string; state: string } }

/** A dashboard's change stream: when it carries each unit in each state. */
function followStream(base: string) {
  const carried = arrivals(GIVE_UP_MS);
  const stream = openChangeStream(base, (data, at) => {
    const change = JSON.parse(data) as Partial<UnitChange>;
    if (change.unit) carried.mark(`${change.unit.id}:${change.unit.state}`, at);
  });
  return { ...stream, arrival: (unitId: string, state: string) => carried.when(`${unitId}:${state}`) };
}

const post = (base: string, path: string, body: unknown, client: number) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { ...benchAuth, "content-type": "application/json", "x-forwarded-for": `198.51.100.${1 + (client % 200)}` },
    body: JSON.stringify(body),
  });

async function main(): Promise<void> {
  console.log(`load average before: ${loadAverage().join(" ")}`);
  await withScratchClient(server, async (client, url) => {
    await seedIncidents(client, 0, INCIDENTS - 1, 1);
    await withTwoInstances(portA, url, async (a, b) => {
      const streams = Array.from({ length: STREAMS }, (_, index) => followStream(index % 2 === 0 ? a.base : b.base));
      try {
        const csv = ["call_sign,type,station,station_latitude,station_longitude",
          ...Array.from({ length: UNITS }, (_, index) => `U${String(index).padStart(3, "0")},${["engine", "ambulance", "patrol", "ladder"][index % 4]},Station ${index % 25},${25 + (index % 50) / 10},${-81 + (index % 37) / 10}`)].join("\n");
        const imported = await post(a.base, "/api/units/import", { csv }, 0);
        if (imported.status !== 201 && imported.status !== 200) throw new Error(`import answered ${imported.status}: ${await imported.text()}`);
        const units = ((await imported.json()) as { units: { id: string }[] }).units.map((unit) => unit.id);
        await Promise.all(streams.map((stream) => stream.connected));

        // 1. Each state change until every stream carries it.
        const latencies: number[] = [];
        let missed = 0;
        for (let index = 0; index < CHANGES; index++) {
          const unit = units[index];
          const base = index % 2 === 0 ? a.base : b.base;
          const move = async (state: string) => {
            const answer = await post(base, `/api/units/${unit}/state`, { state }, index);
            if (answer.status !== 200) throw new Error(`state change answered ${answer.status}: ${await answer.text()}`);
          };
          // The feed carries a unit once, at its latest state: the next move waits until every stream has this one.
          const started = Date.now();
          const arrivals = streams.map((stream) => stream.arrival(unit, "out_of_service"));
          await move("out_of_service");
          for (const at of await Promise.all(arrivals)) {
            if (at === null) missed += 1;
            else latencies.push(at - started);
          }
          await move("available");
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        latencies.sort((x, y) => x - y);

        // 2. A thousand at once.
        const { rows: open } = await client.query<{ id: string }>(`SELECT id FROM incidents WHERE status IN ('active','dispatched','enroute') ORDER BY id`);
        let seed = 7;
        const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
        const STATES = ["en_route", "on_scene", "available"];
        const started = Date.now();
        const answers = await Promise.all(
          Array.from({ length: CONCURRENT }, (_, index) => {
            const base = index % 2 === 0 ? a.base : b.base;
            const unit = units[random(UNITS)];
            return (index % 2 === 0
              ? post(base, `/api/incidents/${open[random(open.length)].id}/units`, { unit_ids: [unit], confirm: false }, index)
              : post(base, `/api/units/${unit}/state`, { state: STATES[random(STATES.length)] }, index)
            ).then(async (response) => `${index % 2 === 0 ? "assign" : "state"} ${response.status}${response.status >= 400 && response.status !== 409 ? ` ${(await response.text()).slice(0, 120)}` : ""}`);
          }),
        );
        const concurrentMs = Date.now() - started;
        const outcomes: Record<string, number> = {};
        for (const outcome of answers) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;

        const check = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0].n);
        const invariants = {
          units_with_two_open_assignments: await check(`SELECT count(*) AS n FROM (SELECT unit_id FROM unit_assignments WHERE cleared_at IS NULL GROUP BY unit_id HAVING count(*) > 1) t`),
          assigned_unfree_without_confirmation: await check(`
            SELECT count(*) AS n FROM unit_assignments a
            CROSS JOIN LATERAL (SELECT h.from_state FROM unit_state_changes h
              WHERE h.unit_id = a.unit_id AND h.state = 'dispatched' AND h.at >= a.assigned_at ORDER BY h.at, h.id LIMIT 1) d
            WHERE a.confirmed_from_state IS NULL AND d.from_state NOT IN ('available', 'available_on_scene')`),
          units_disagreeing_with_their_assignment: await check(`
            SELECT count(*) AS n FROM units u LEFT JOIN unit_assignments a ON a.unit_id = u.id AND a.cleared_at IS NULL
            WHERE u.incident_id IS DISTINCT FROM a.incident_id
               OR (a.id IS NULL) <> (u.state IN ('available', 'out_of_service'))`),
          incidents_with_open_units_not_dispatched_or_en_route: await check(`
            SELECT count(*) AS n FROM incidents i WHERE EXISTS (SELECT 1 FROM unit_assignments a WHERE a.incident_id = i.id AND a.cleared_at IS NULL)
              AND i.status NOT IN ('dispatched', 'enroute')`),
          incidents_all_cleared_still_dispatched: await check(`
            SELECT count(*) AS n FROM incidents i WHERE EXISTS (SELECT 1 FROM unit_assignments a WHERE a.incident_id = i.id)
              AND NOT EXISTS (SELECT 1 FROM unit_assignments a WHERE a.incident_id = i.id AND a.cleared_at IS NULL)
              AND i.status = 'dispatched'`),
        };
        const assignments = await check(`SELECT count(*) AS n FROM unit_assignments`);

        console.log(
          JSON.stringify(
            {
              units: UNITS,
              open_incidents: open.length,
              streams: STREAMS,
              state_change_on_every_stream: {
                changes: CHANGES,
                arrivals: latencies.length,
                missed,
                p50_ms: Math.round(percentile(latencies, 0.5)),
                p95_ms: Math.round(percentile(latencies, 0.95)),
                max_ms: latencies.at(-1),
              },
              concurrent: { requests: CONCURRENT, wall_ms: concurrentMs, outcomes, assignments_made: assignments },
              invariants,
              load_average_after: loadAverage(),
            },
            null,
            2,
          ),
        );
        if (missed > 0 || Object.values(invariants).some((count) => count > 0)) process.exitCode = 1;
      } finally {
        for (const stream of streams) stream.close();
      }
    });
  });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
