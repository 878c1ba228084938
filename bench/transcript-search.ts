/**
 * GET /api/calls?q= at 1,000,000 stored calls (issue 28, acceptance 3: a phrase the caller said,
 * < 200 ms p50), on the production server (`npm run build` first), in a scratch database:
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/transcript-search.ts
 *
 * Seeds 1,000,000 calls (bench/seed-calls.ts), then a six-turn transcript for each voice-agent
 * call among them (400,000; the caller gives the address, what happened, who is hurt and a name),
 * with the trigram indexes built after the load (as a restore would). Every request asks a
 * different text, so the listing cache (keyed by the filters) never answers: each is a page
 * query and a count in PostgreSQL. EXPLAIN ANALYZE of the rare phrase's page and count queries
 * is printed.
 */
import pg from "pg";
import { parseListQuery } from "../lib/calls/filters";
import { countSql, pageSql } from "../lib/calls/query";
import { benchAuth, startProductionServer } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const PORT = Number(process.env.BENCH_PORT ?? 3933);
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

const COLOURS = ["red", "blue", "white", "black", "silver", "green", "yellow", "grey", "orange", "brown", "purple", "gold"];
const VEHICLES = ["pickup", "sedan", "van", "bus", "motorbike", "truck", "minivan", "jeep", "taxi", "trailer", "camper", "coupe"];
const VERBS = ["crashed into", "rolled onto", "slid past", "knocked over", "burst through", "stopped against", "flipped near", "scraped"];
const OBJECTS = ["mailbox", "hydrant", "fence", "power pole", "bus shelter", "gas pump", "tree", "wall", "gate", "porch", "kiosk", "bench"];
const PLACES = ["library", "pharmacy", "school", "church", "bakery", "stadium", "clinic", "marina", "motel", "garage", "diner", "museum"];
const HURT = [
  "my father has trouble breathing and his lips are blue",
  "nobody is hurt but the smoke is getting thick",
  "two people are trapped on the second floor",
  "a woman is bleeding badly from her leg",
  "my neighbour collapsed and is not answering",
  "the driver is awake but cannot move his arm",
  "a child fell into the water near the dock",
  "an old man is stuck in the elevator",
];
const FIRST = ["Maria", "James", "Aisha", "Chen", "Olga", "Pedro", "Fatima", "Liam", "Noor", "Kofi", "Ingrid", "Ravi", "Sofia", "Tomas", "Yuki", "Zara"];
const LAST = ["Garcia", "Smith", "Okafor", "Nguyen", "Ivanova", "Silva", "Haddad", "Murphy", "Khan", "Mensah", "Larsen", "Patel", "Rossi", "Novak", "Sato", "Ali"];

const sqlArray = (values: string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(",")}]`;
const pick = (values: string[], bits: string) => `(${sqlArray(values)})[1 + (${bits}) % ${values.length}]`;

/** What happened, as the caller of row hash `h` says it: one of 165,888 sentences. */
const detailSql = (h: string) =>
  `'the ' || ${pick(COLOURS, `${h}`)} || ' ' || ${pick(VEHICLES, `${h} >> 4`)} || ' ' || ${pick(VERBS, `${h} >> 8`)} || ' the ' || ${pick(OBJECTS, `${h} >> 11`)} || ' by the ' || ${pick(PLACES, `${h} >> 15`)}`;
const detailOf = (h: number) =>
  `the ${COLOURS[h % 12]} ${VEHICLES[(h >> 4) % 12]} ${VERBS[(h >> 8) % 8]} the ${OBJECTS[(h >> 11) % 12]} by the ${PLACES[(h >> 15) % 12]}`;

async function seedTranscripts(client: pg.Client): Promise<void> {
  const started = performance.now();
  await client.query(`
    INSERT INTO call_transcripts (call_id, turns, text)
    SELECT c.id, to_jsonb(t.turns), array_to_string(ARRAY(SELECT x->>'text' FROM unnest(t.turns) AS x), E'\\n')
    FROM calls c
    CROSS JOIN LATERAL (SELECT hashtext(c.id)::bigint & 2147483647 AS h) AS r
    CROSS JOIN LATERAL (SELECT ARRAY[
      jsonb_build_object('speaker', 'agent', 'time_in_call_secs', 0, 'text', '911, what is the address of your emergency?'),
      jsonb_build_object('speaker', 'user', 'time_in_call_secs', 4, 'text', 'I am at ' || c.location || ', ' || ${detailSql("r.h")} || '.'),
      jsonb_build_object('speaker', 'agent', 'time_in_call_secs', 15, 'text', 'Is anyone hurt?'),
      jsonb_build_object('speaker', 'user', 'time_in_call_secs', 18, 'text', 'Yes, ' || ${pick(HURT, "r.h >> 19")} || '.'),
      jsonb_build_object('speaker', 'agent', 'time_in_call_secs', 30, 'text', 'Help is on the way. What is your name?'),
      jsonb_build_object('speaker', 'user', 'time_in_call_secs', 34, 'text',
        'My name is ' || ${pick(FIRST, "r.h >> 22")} || ' ' || ${pick(LAST, "r.h >> 26")} || ', please hurry.')
    ] AS turns) AS t
    WHERE NOT c.simulation`);
  console.log(`transcripts seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function measure(base: string, texts: string[]): Promise<{ p50: number; p90: number; max: number; runs: number; totals: number[] }> {
  const times: number[] = [];
  const totals: number[] = [];
  for (const text of texts) {
    const started = performance.now();
    const response = await fetch(`${base}/api/calls?q=${encodeURIComponent(text)}`, { headers: benchAuth });
    const body = (await response.json()) as { pagination: { total: number } };
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${text}: ${response.status} ${JSON.stringify(body)}`);
    totals.push(body.pagination.total);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p90: percentile(times, 0.9), max: times.at(-1)!, runs: times.length, totals };
}

async function explain(client: pg.Client, text: string): Promise<void> {
  const { filters, limit, offset } = parseListQuery(new URLSearchParams({ q: text }));
  for (const [kind, sql] of [["page", pageSql(filters, limit, offset)], ["count", countSql(filters)]] as const) {
    const { rows } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql.text}`, sql.values);
    console.log(`\n-- q=${text}: ${kind}\n${rows.map((row) => `   ${row["QUERY PLAN"]}`).join("\n")}`);
  }
}

async function main(): Promise<void> {
  await withScratchClient(server, async (client, url) => {
    // Indexes built after the load, as a restore builds them (and much faster than row by row).
    await client.query("DROP INDEX calls_summary_trgm_idx");
    await client.query("DROP INDEX call_transcripts_text_trgm_idx");
    await seed(client, 1, ROWS);
    await seedTranscripts(client);
    const started = performance.now();
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query(`CREATE INDEX calls_summary_trgm_idx ON calls USING GIN (summary gin_trgm_ops)`);
    await client.query(`CREATE INDEX call_transcripts_text_trgm_idx ON call_transcripts USING GIN (text gin_trgm_ops)`);
    await client.query("VACUUM ANALYZE call_transcripts");
    console.log(`trigram indexes built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const { rows: [sizes] } = await client.query(`SELECT count(*)::int AS transcripts,
      pg_size_pretty(pg_total_relation_size('call_transcripts')) AS table_size,
      pg_size_pretty(pg_relation_size('call_transcripts_text_trgm_idx')) AS text_index,
      pg_size_pretty(pg_relation_size('calls_summary_trgm_idx')) AS summary_index FROM call_transcripts`);
    console.log(`${ROWS} calls, ${JSON.stringify(sizes)}`);

    const app = await startProductionServer(PORT, { DATABASE_URL: url });
    try {
      // Distinct texts: the listing cache never holds the answer.
      const rare = Array.from({ length: 60 }, (_, index) => detailOf((index * 2_654_435_761) >>> 1));
      const names = FIRST.flatMap((first, index) => [`my name is ${first} ${LAST[(index * 5) % LAST.length]}`, `${first} ${LAST[(index * 7 + 3) % LAST.length]}, please`]);
      const common = Array.from({ length: 20 }, (_, index) => HURT[0].slice(index, index + 24));
      await measure(app.base, ["warm-up words one", "warm-up words two", "warm-up words three"]);
      const scenarios: [string, string[]][] = [
        ["a sentence the caller said (rare: about 2 of 400,000 transcripts)", rare],
        ["the caller's name (about 1,600 matches)", names],
        ["a common phrase (1 call in 8: about 50,000 matches)", common],
      ];
      console.log("| q= | requests | matches (median) | p50 ms | p90 ms | max ms |");
      console.log("|---|---|---|---|---|---|");
      for (const [label, texts] of scenarios) {
        const result = await measure(app.base, texts);
        const sortedTotals = [...result.totals].sort((a, b) => a - b);
        console.log(`| ${label} | ${result.runs} | ${percentile(sortedTotals, 0.5)} | ${result.p50.toFixed(1)} | ${result.p90.toFixed(1)} | ${result.max.toFixed(1)} |`);
      }
      await explain(client, rare[0]);
    } finally {
      app.stop();
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
