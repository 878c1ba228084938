/**
 * Webhook payloads that used to hurt, against the production build (tests/e2e/serve.ts: a fresh
 * database, `npm start`'s path):
 *
 * 1. latency of each hostile payload of issue 13 (NUL in text fields, 1e308 and 2^31 durations,
 *    huge transcript spans, a 1 MB emergency type, a 1 MB location, invalid UTF-8, a body of
 *    almost 5 MB): every one must be answered 200 or 4xx within 500 ms;
 * 2. server memory while a 20 MB post_call_audio event is stored: the peak resident set size
 *    (sampled every 5 ms from /proc) minus the one before the request, against the body size.
 *
 *   npm run build && TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test \
 *     BENCH_PORT=3104 npx tsx bench/webhook-payloads.ts
 *
 * Figures go to docs/performance.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import { elevenLabsCallEvent, specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { silentMp3 } from "../tests/support/mp3";
import { withProductionServer } from "./production-server";

const port = Number(process.env.BENCH_PORT ?? process.env.E2E_PORT ?? 3106);
const base = `http://localhost:${port}`;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const AUDIO_RUNS = Number(process.env.BENCH_AUDIO_RUNS ?? 3);
const LATENCY_LIMIT_MS = 500;

/** The Next server itself (.next/mayday-server.mjs), found among the process group serve.ts leads. */
function serverPid(group: number): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (Number(fields[2]) === group && cmdline.includes("mayday-server.mjs")) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  throw new Error("the server process was not found");
}

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

type Body = string | Buffer;

async function post(body: Body): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/api/voiceagent-webhook`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body as BodyInit,
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

let sequence = 0;
const id = (label: string) => `bench_${label}_${Date.now().toString(36)}_${++sequence}`;
const NUL = "\u0000";

function collected(event: ReturnType<typeof specCallEvent>, key: string, value: unknown) {
  (event.data.analysis.data_collection_results as Record<string, unknown>)[key] = { value };
  return event;
}

/** The payloads, each made afresh (a new conversation) for every repeat. */
const cases: Record<string, () => Body> = {
  "NUL in agent_id": () => {
    const event = specCallEvent(id("nul_agent"));
    event.data.agent_id = `agent${NUL}`;
    return JSON.stringify(event);
  },
  "NUL in transcript_summary": () => {
    const event = specCallEvent(id("nul_summary"));
    event.data.analysis.transcript_summary += NUL;
    return JSON.stringify(event);
  },
  "NUL in emergency_type": () => JSON.stringify(collected(specCallEvent(id("nul_type")), "emergency_type", `fire${NUL}`)),
  "NUL in location": () => JSON.stringify(collected(specCallEvent(id("nul_location")), "location", `Music Row${NUL}`)),
  "call_duration_secs 1e308": () => JSON.stringify(specCallEvent(id("d308"))).replace('"call_duration_secs":97', '"call_duration_secs":1e308'),
  "call_duration_secs 2^31": () => JSON.stringify(specCallEvent(id("d2_31"))).replace('"call_duration_secs":97', '"call_duration_secs":2147483648'),
  "transcript times -1e308..1e308": () => {
    const event = specCallEvent(id("span308"));
    delete (event.data as { metadata?: unknown }).metadata;
    event.data.transcript[0].timestamp = -1e308;
    event.data.transcript[2].timestamp = 1e308;
    return JSON.stringify(event);
  },
  "transcript span 3e9 s": () => {
    const event = specCallEvent(id("span3e9"));
    delete (event.data as { metadata?: unknown }).metadata;
    event.data.transcript[2].timestamp = 3e9;
    return JSON.stringify(event);
  },
  "emergency_type 1 MB": () => JSON.stringify(collected(specCallEvent(id("type1mb")), "emergency_type", "x".repeat(1 << 20))),
  "emergency_type 264 KB of words": () =>
    JSON.stringify(collected(specCallEvent(id("typewords")), "emergency_type", "gas leak near school ".repeat(12_900))),
  "NUL in every text field": () => {
    const event = elevenLabsCallEvent(id("nul_all"));
    const text = JSON.stringify(event).replace(/"([^"\\]*)"(?=\s*[,}\]])/g, (_match, value: string) => `"${value}\\u0000"`);
    return text;
  },
  "1e308 in every number": () => JSON.stringify(elevenLabsCallEvent(id("n308_all"))).replace(/(?<=":)-?\d+(\.\d+)?(?=[,}])/g, "1e308"),
  "invalid UTF-8": () => {
    const [before, after] = JSON.stringify(specCallEvent(id("utf8"))).split("Fire units dispatched.");
    return Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from(after)]);
  },
  "location 1 MB": () => JSON.stringify(collected(specCallEvent(id("loc1mb")), "location", "Music Row, Nashville ".repeat(50_000))),
  "body of 4.9 MB (100,000 turns)": () => {
    const event = specCallEvent(id("turns"));
    event.data.transcript = Array.from({ length: 100_000 }, (_, index) => ({ speaker: "caller", text: "", timestamp: index }));
    return JSON.stringify(event);
  },
};

async function latencies() {
  const results: Record<string, { statuses: number[]; max_ms: number; bytes: number }> = {};
  for (const [name, make] of Object.entries(cases)) {
    const statuses: number[] = [];
    let max = 0;
    let bytes = 0;
    for (let run = 0; run < REPEATS; run++) {
      const body = make();
      bytes = Buffer.byteLength(body);
      const { status, ms } = await post(body);
      statuses.push(status);
      max = Math.max(max, ms);
    }
    results[name] = { statuses: [...new Set(statuses)], max_ms: Math.round(max), bytes };
  }
  return results;
}

async function audioMemory(pid: number) {
  const audio = silentMp3(15 * 1024 * 1024);
  const runs: { body_bytes: number; rss_before_mb: number; peak_rise_mb: number; ratio: number; ms: number; status: number }[] = [];
  for (let run = 0; run < AUDIO_RUNS; run++) {
    const body = Buffer.from(
      JSON.stringify({ type: "post_call_audio", event_timestamp: Math.floor(Date.now() / 1000), data: { agent_id: "bench", conversation_id: id("audio"), full_audio: audio.toString("base64") } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = rssBytes(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 5);
    const { status, ms } = await post(body);
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(pid));
    const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;
    runs.push({ body_bytes: body.length, rss_before_mb: mb(before), peak_rise_mb: mb(peak - before), ratio: Math.round(((peak - before) / body.length) * 100) / 100, ms: Math.round(ms), status });
  }
  return runs;
}

async function main(): Promise<void> {
  await withProductionServer(port, async (_base, group) => {
    const pid = serverPid(group);
    // Warm-up, not counted: route compilation caches, connections, the place data.
    for (const make of Object.values(cases)) await post(make());
    const payloads = await latencies();
    const audio = await audioMemory(pid);
    console.log(JSON.stringify({ payloads, audio }, null, 2));
    const slow = Object.entries(payloads).filter(([, result]) => result.max_ms > LATENCY_LIMIT_MS || result.statuses.some((status) => status >= 500));
    const heavy = audio.filter((run) => run.status !== 200 || run.ratio >= 3);
    console.log(slow.length === 0 && heavy.length === 0 ? "PASS: every payload 200/4xx under 500 ms; audio memory rise under 3x its body" : "FAIL: a target was missed");
    process.exitCode = slow.length === 0 && heavy.length === 0 ? 0 : 1;
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
