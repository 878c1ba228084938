/**
 * Unit recommendation over 1,000 units (issue 39, acceptance 3): the domain function behind
 * GET /api/incidents/{id}/units, in process, on a scratch database:
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/unit-recommend.ts
 *
 * 1,000 units around Miami (a third with a fresh position, a third with a stale one, a third with
 * none, all with a home station; nine in ten free, the rest busy), one incident. 200 timed runs
 * after 10 warm-up runs: p50, p95, max. It checks the ranking against SQL's own haversine (the
 * point each unit should be measured from: a fresh position, else its station), that the ranking
 * is by travel time, and that every stale position is flagged in its reason and never used.
 */
import { loadavg } from "node:os";
import { recommendUnits } from "../lib/units/recommend";
import { withScratchClient } from "./scratch-database";
import { seedIncidents } from "./seed-incidents";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const UNITS = 1_000;
const RUNS = 200;

async function main(): Promise<void> {
  console.log(`load average before: ${loadavg().map((value) => value.toFixed(2)).join(" ")}`);
  await withScratchClient(server, async (client) => {
    await seedIncidents(client, 0, 0, 1);
    // A shelter question's plan sends no unit: the ranking is by distance alone (plans: bench/plan-recommend.ts).
    await client.query(`UPDATE incidents SET latitude = 25.77, longitude = -80.19, emergency_type = 'shelter_information', severity = 'moderate' WHERE id = 'inc_0'`);
    // u % 3: 0 a fresh position, 1 a stale one (an hour old), 2 none; u % 10 = 9: busy (en route).
    await client.query(`
      INSERT INTO units (id, call_sign, name, type, station, station_latitude, station_longitude, state, latitude, longitude, position_at)
      SELECT 'unit_' || u, 'U' || lpad(u::text, 4, '0'), 'Unit ' || u,
        (ARRAY['engine','ladder','rescue','ambulance','patrol','hazmat','command','other'])[1 + u % 8],
        'Station ' || (u % 40), 25.5 + (hashint4(u) & 1023) / 2046.0, -80.5 + (hashint4(u + 7) & 1023) / 2046.0,
        CASE WHEN u % 10 = 9 THEN 'en_route' WHEN u % 10 = 8 THEN 'available_on_scene' ELSE 'available' END,
        CASE WHEN u % 3 < 2 THEN 25.4 + (hashint4(u + 13) & 1023) / 1023.0 END,
        CASE WHEN u % 3 < 2 THEN -80.6 + (hashint4(u + 29) & 1023) / 1023.0 END,
        CASE u % 3 WHEN 0 THEN now() - interval '30 seconds' WHEN 1 THEN now() - interval '1 hour' END
      FROM generate_series(1, ${UNITS}) AS u`);
    await client.query("ANALYZE units");

    const times: number[] = [];
    let answer = await recommendUnits("inc_0");
    for (let run = 0; run < RUNS + 10; run++) {
      const started = performance.now();
      answer = await recommendUnits("inc_0");
      if (run >= 10) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);

    // The truth: SQL's haversine from each free unit's fresh position, else its station.
    const { rows: truth } = await client.query<{ id: string; km: number }>(`
      SELECT id, 2 * 6371.0088 * asin(least(1, sqrt(
          sin(radians(25.77 - lat) / 2) ^ 2 + cos(radians(lat)) * cos(radians(25.77)) * sin(radians(-80.19 - lon) / 2) ^ 2))) AS km
      FROM (SELECT id,
          CASE WHEN position_at > now() - interval '300 seconds' THEN latitude ELSE station_latitude END AS lat,
          CASE WHEN position_at > now() - interval '300 seconds' THEN longitude ELSE station_longitude END AS lon
        FROM units WHERE state IN ('available', 'available_on_scene')) p
      ORDER BY km, id`);
    const ranked = answer.units.map((entry) => entry.unit.id);
    // Each unit's distance equals SQL's, and the ranking is by travel time (the distance at its type's speed).
    const byId = new Map(answer.units.map((entry) => [entry.unit.id, entry]));
    const sameDistances = truth.length === ranked.length && truth.every((row) => Math.abs(row.km - (byId.get(row.id)?.distance_km ?? Number.NaN)) < 0.01);
    const byTime = answer.units.every((entry, at) => at === 0 || (answer.units[at - 1].travel_minutes ?? Infinity) <= (entry.travel_minutes ?? Infinity));
    const sameOrder = sameDistances && byTime;
    const staleSeeded = answer.units.filter((entry) => Number(entry.unit.id.slice(5)) % 3 === 1);
    const staleFlagged = staleSeeded.filter((entry) => entry.reason.includes("is stale") && entry.from === "station").length;

    console.log(
      JSON.stringify(
        {
          units: UNITS,
          recommended: ranked.length,
          runs: RUNS,
          p50_ms: Math.round(percentile(times, 0.5) * 100) / 100,
          p95_ms: Math.round(percentile(times, 0.95) * 100) / 100,
          max_ms: Math.round(times.at(-1)! * 100) / 100,
          ranking_equals_sql: sameOrder,
          stale_positions: staleSeeded.length,
          stale_flagged_and_unused: staleFlagged,
          load_average_after: loadavg().map((value) => Number(value.toFixed(2))),
        },
        null,
        2,
      ),
    );
    if (!sameOrder || staleFlagged !== staleSeeded.length) process.exitCode = 1;
  });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
