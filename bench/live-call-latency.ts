/**
 * Live calls across instances (issue 38, acceptance 1): two production instances over one scratch
 * database holding BENCH_LIVE_BACKGROUND (default 1,000) open incidents spread over the United
 * States; the dashboard open on instance A in Chromium (1440 x 900):
 *
 *   npm run build && BENCH_PORT=3109 npx tsx bench/live-call-latency.ts
 *
 * (A on BENCH_PORT, B on BENCH_PORT + 100; BENCH_DATABASE_URL names the server the scratch
 * database is made on.) Both instances hold the three platforms' secrets; every tool call is posted
 * in its platform's own wire format with its own credential (docs/webhook.md, "Live calls"): Vapi
 * tool-calls signed with VAPI_WEBHOOK_SECRET (HMAC), Retell's custom function signed with
 * RETELL_API_KEY, ElevenLabs' server tool with ELEVENLABS_TOOL_SECRET in its header; the platforms
 * take turns, each from its own address behind the trusted proxy.
 *
 * 1. On the board. BENCH_LIVE_CALLS (100) live calls, one every BENCH_LIVE_EVERY_MS (1,500), each a
 *    `report_emergency` to B (critical or high, its own street address). From the moment its POST
 *    starts (this machine's clock, as the page's): when its incident's marker is drawn on A's map,
 *    and when its incident's row is drawn in A's queue (a MutationObserver in the page). Also the
 *    tool's answer time on B, and where the time goes: when A's page got the change event naming
 *    the call, and how long after it the page's next read of the map and of the queue started (the
 *    page batches events for 250 ms and reads its picture again after the board's read, at once
 *    while changes come more than a second apart, every 2 s once faster: components/console/use-change-feed.ts)
 *    and took. A call not seen
 *    within 15 s of its post counts as not seen.
 * 2. In progress. BENCH_LIVE_INPROGRESS (200) more live calls, all on the line at once: each starts
 *    within BENCH_LIVE_RAMP_MS (10,000) with `report_emergency`, asks `incident_status` about
 *    BENCH_LIVE_GAP_MS (8,000, ±25%) later and reports again with more detail (details, callback
 *    number) as long after that; each tool call goes to A or B (a call's report to one, its status
 *    to the other), so from the ramp's end until the first calls' last report all of them are in
 *    progress. Each tool call's answer time (from the POST's start until its body is read), the
 *    answers other than 2xx, and the 200s that carry a failure (Vapi answers a tool it could not
 *    run with 200 and an `error` result) or say `reported: false`.
 *
 * What "the incident's marker" is. The map is clustered by the server on a grid (lib/board/call-map.ts):
 * below MARKER_ZOOM (16) an incident is its own marker only when it is alone in its 64-pixel cell.
 * At the dashboard's first view (fitted to every open incident: the whole country here) a new
 * incident is counted into a cluster whose figure goes up by one, which says nothing about which
 * incident it is. Without a hosted geocoder a spoken street address is placed at its town's centre
 * (the embedded gazetteer, locality precision), so every incident of one town shares one point,
 * and one cluster below street level. A dispatcher following a town zooms in: from MARKER_ZOOM
 * each incident is its own marker, those on one point fanned out on a ring (components/map/CallMap.tsx).
 * So the board's calls all go to one town (Springfield, Illinois), the map on A is set to its
 * centre at MARKER_ZOOM before the first call (through Leaflet's map, caught as Leaflet builds it:
 * what the dispatcher's zoom does), and the incident's marker is the `.incident-marker` whose
 * title (what the dispatcher reads on hovering it) says "... at <the call's address>, ...". A
 * cluster's figure at a coarser view changes with the same read of the map (the same change
 * feed's refresh), so the time is the same there, only it cannot be told apart. The in-progress
 * calls go to other towns, outside that view.
 *
 * The queue row. The queue is virtualised (only the rows in view are drawn) and ordered by
 * priority: highest severity, then longest waiting, so a new critical incident ranks behind every
 * older critical one, hundreds of rows down, never drawn until scrolled to. The queue is set to its
 * other order, "Order: received" (the latest first, the browser's remembered choice, as a dispatcher
 * watching for new calls sets it), where a new incident comes first in "Waiting". The row is the
 * `.queue-item` whose `data-latest-call-id` is the call's conversation id (`vapi:<id>`,
 * `retell:<id>`, ElevenLabs' own); its `data-incident-id` is checked against the call's incident on
 * B (GET /api/calls/{conversation id}), as is that every call got an incident of its own.
 *
 * A JSON summary goes to stdout, with the load average at the start and the end; nothing is written.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Page } from "@playwright/test";
import { retellSignatureHeader } from "../lib/voice-platforms/retell/signature";
import { vapiHmacHeaders } from "../lib/voice-platforms/vapi/signature";
import { ELEVENLABS_TOOL_SECRET_HEADER } from "../lib/voice-platforms/elevenlabs/tools";
import type { LiveStatus } from "../lib/on-the-line/incident-status";
import type { LiveTool } from "../lib/voice-platforms/tools";
import { MARKER_ZOOM } from "../lib/board/call-map";
import { launchBenchBrowser, newDashboardPage } from "./browser";
import { benchAuth, type ProductionServer, withTwoInstances } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { seedIncidents } from "./seed-incidents";
import { latencySummary, loadAverage, percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const portA = Number(process.env.BENCH_PORT ?? 3109);
const BACKGROUND = Number(process.env.BENCH_LIVE_BACKGROUND ?? 1_000);
const CALLS = Number(process.env.BENCH_LIVE_CALLS ?? 100);
const EVERY_MS = Number(process.env.BENCH_LIVE_EVERY_MS ?? 1_500);
const IN_PROGRESS = Number(process.env.BENCH_LIVE_INPROGRESS ?? 200);
const RAMP_MS = Number(process.env.BENCH_LIVE_RAMP_MS ?? 10_000);
const GAP_MS = Number(process.env.BENCH_LIVE_GAP_MS ?? 8_000);
/** How long a call may take to reach A's map and queue before it counts as not seen. */
const GIVE_UP_MS = 15_000;

/** The platforms' secrets, as both instances hold them. */
const SECRETS = {
  VAPI_WEBHOOK_SECRET: "bench-vapi-live-secret-0123456789",
  RETELL_API_KEY: "key_bench_retell_live_0123456789abcdef",
  ELEVENLABS_TOOL_SECRET: "bench-elevenlabs-tool-secret-0123456789",
};

type Platform = "vapi" | "retell" | "elevenlabs";
const PLATFORMS: Platform[] = ["vapi", "retell", "elevenlabs"];
/** Each platform posts from an address of its own (documentation range), behind the trusted proxy. */
const PLATFORM_ADDRESS: Record<Platform, string> = { vapi: "203.0.113.41", retell: "203.0.113.42", elevenlabs: "203.0.113.43" };
const TYPES = ["fire", "medical", "traffic_accident", "hazmat", "police", "natural_disaster"];
/** The in-progress calls' towns: known to the embedded gazetteer, far from the board's view. */
const TOWNS = ["Nashville, Tennessee", "Miami, Florida", "Denver, Colorado", "Portland, Oregon", "Austin, Texas", "Omaha, Nebraska", "Boise, Idaho", "Albany, New York"];
const BOARD_TOWN = "Springfield, Illinois";

interface LiveCall {
  platform: Platform;
  /** The platform's own call id. */
  callId: string;
  /** Mayday's: `vapi:<id>`, `retell:<id>`, ElevenLabs' as it is. */
  conversationId: string;
  phone: string;
}

function liveCall(platform: Platform, callId: string, index: number): LiveCall {
  const conversationId = platform === "elevenlabs" ? callId : `${platform}:${callId}`;
  return { platform, callId, conversationId, phone: `+1217555${String(index % 10_000).padStart(4, "0")}` };
}

/** A tool call as the call's platform posts it: where, with which headers (its credential over these bytes), what. */
function toolRequest(call: LiveCall, tool: LiveTool, args: Record<string, string>, serial: number): { path: string; headers: Record<string, string>; body: string } {
  const common = { "content-type": "application/json", "x-forwarded-for": PLATFORM_ADDRESS[call.platform] };
  if (call.platform === "vapi") {
    const body = JSON.stringify({
      message: {
        type: "tool-calls",
        timestamp: Date.now(),
        call: { id: call.callId, assistantId: "asst_bench", customer: { number: call.phone } },
        toolCallList: [{ id: `call_tool_${serial}`, type: "function", function: { name: tool, arguments: args } }],
      },
    });
    return { path: "/api/live-calls/vapi", headers: { ...common, ...vapiHmacHeaders(SECRETS.VAPI_WEBHOOK_SECRET, body) }, body };
  }
  if (call.platform === "retell") {
    const body = JSON.stringify({ name: tool, args, call: { call_id: call.callId, agent_id: "agent_bench", direction: "inbound", from_number: call.phone, call_status: "ongoing" } });
    return { path: "/api/live-calls/retell", headers: { ...common, "x-retell-signature": retellSignatureHeader(SECRETS.RETELL_API_KEY, body) }, body };
  }
  const body = JSON.stringify({ conversation_id: call.callId, caller_id: call.phone, agent_id: "agent_bench", ...args });
  return { path: `/api/live-calls/elevenlabs/${tool}`, headers: { ...common, [ELEVENLABS_TOOL_SECRET_HEADER]: SECRETS.ELEVENLABS_TOOL_SECRET }, body };
}

interface Answer {
  ms: number;
  status: number;
  /** What went wrong in a 2xx answer: Vapi's `error` result, an unreadable status, or `reported: false`. */
  problem: string | null;
}

let serial = 0;

/** Posts one tool call and reads its answer, timed from the POST's start. */
async function callTool(base: string, call: LiveCall, tool: LiveTool, args: Record<string, string> = {}): Promise<Answer> {
  const request = toolRequest(call, tool, args, ++serial);
  const started = performance.now();
  const response = await fetch(`${base}${request.path}`, { method: "POST", headers: request.headers, body: request.body });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) return { ms, status: response.status, problem: text.slice(0, 200) };
  let problem: string | null = null;
  try {
    const json = JSON.parse(text) as { results?: { result?: string; error?: string }[] } & Partial<LiveStatus>;
    let answer: Partial<LiveStatus> = json;
    if (call.platform === "vapi") {
      const [result] = json.results ?? [];
      if (!result || result.error !== undefined || result.result === undefined) problem = result?.error ?? "no result";
      else answer = JSON.parse(result.result) as LiveStatus;
    }
    if (problem === null && answer.reported !== true) problem = "reported: false";
  } catch {
    problem = `unreadable answer: ${text.slice(0, 200)}`;
  }
  return { ms, status: response.status, problem };
}


/** Answer times as the acceptance reads them (p99 as well). */
function answerSummary(answers: readonly Answer[]) {
  const times = answers.map((answer) => answer.ms).sort((x, y) => x - y);
  const at = (q: number) => (times.length ? Math.round(percentile(times, q)) : null);
  return {
    count: times.length,
    within_1s: times.filter((ms) => ms <= 1_000).length,
    p50_ms: at(0.5),
    p95_ms: at(0.95),
    p99_ms: at(0.99),
    max_ms: times.length ? Math.round(times.at(-1)!) : null,
    non_2xx: answers.filter((answer) => answer.status < 200 || answer.status > 299).length,
    problems_in_2xx: answers.filter((answer) => answer.status >= 200 && answer.status <= 299 && answer.problem !== null).length,
  };
}

/**
 * In the page: Leaflet's map as it is built (`window.__benchMap`; Leaflet 1.9 sets `window.L`), the
 * queue's order set to "received", and when each incident marker (by its title) and each queue row
 * (by its latest call's conversation id, with its incident) was first drawn, as `window.__drawn`
 * (Date.now()). Rows are reused by the virtualiser and titles kept current, hence the attributes.
 * Also when the page's change stream first named each call (`feed`): the part of the delay before
 * the dashboard reads its picture again.
 */
const PAGE_PROBE = `
  try { localStorage.setItem("mayday.queue.sort", "received"); } catch {}
  Object.defineProperty(window, "L", {
    configurable: true,
    get() { return window.__leaflet; },
    set(value) {
      window.__leaflet = value;
      value?.Map?.addInitHook?.(function () { window.__benchMap = this; });
    },
  });
  window.__drawn = { markers: {}, rows: {}, feed: {}, reads: [] };
  performance.setResourceTimingBufferSize(100000);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = entry.name.includes("/api/live/incident-map?") ? "map" : entry.name.includes("/api/live/incidents?") && entry.name.includes("section=waiting") ? "queue" : null;
      if (kind) window.__drawn.reads.push({ kind, start: performance.timeOrigin + entry.startTime, end: performance.timeOrigin + entry.responseEnd });
    }
  }).observe({ type: "resource" });
  const PageEventSource = window.EventSource;
  window.EventSource = class extends PageEventSource {
    constructor(...args) {
      super(...args);
      this.addEventListener("change", (event) => {
        const id = JSON.parse(event.data).call?.conversation_id;
        if (id) window.__drawn.feed[id] ??= Date.now();
      });
    }
  };
  new MutationObserver(() => {
    const now = Date.now();
    for (const marker of document.querySelectorAll(".leaflet-marker-pane .incident-marker[title]")) {
      window.__drawn.markers[marker.title] ??= now;
    }
    for (const row of document.querySelectorAll(".queue-item[data-latest-call-id]")) {
      window.__drawn.rows[row.dataset.latestCallId] ??= { at: now, incident: row.dataset.incidentId };
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["title", "data-latest-call-id"] });
`;

interface Drawn {
  markers: Record<string, number>;
  rows: Record<string, { at: number; incident: string }>;
  /** When the page's change stream first named each call. */
  feed: Record<string, number>;
  /** The page's reads of the map and of the queue's "Waiting" section: when each started and ended. */
  reads: { kind: "map" | "queue"; start: number; end: number }[];
}

/** The page's first read of `kind` that started once the stream named the call: how long after, and how long it took. */
function readAfter(drawn: Drawn, kind: "map" | "queue", feedAt: number | undefined) {
  const read = feedAt === undefined ? undefined : drawn.reads.find((entry) => entry.kind === kind && entry.start >= feedAt);
  return read && feedAt !== undefined ? { waitMs: read.start - feedAt, readMs: read.end - read.start } : null;
}
type ProbeWindow = { __drawn: Drawn; __benchMap?: { setView(center: [number, number], zoom: number, options: object): void; getZoom(): number } };

const readDrawn = (page: Page) => page.evaluate(() => (window as unknown as ProbeWindow).__drawn);
const markerOf = (drawn: Drawn, location: string) => {
  const times = Object.entries(drawn.markers).filter(([title]) => title.includes(` at ${location},`)).map(([, at]) => at);
  return times.length ? Math.min(...times) : null;
};

interface CallRecordAnswer {
  incident_id: string;
  latitude: number | null;
  longitude: number | null;
}

async function callRecord(base: string, conversationId: string): Promise<CallRecordAnswer | null> {
  const response = await fetch(`${base}/api/calls/${encodeURIComponent(conversationId)}`, { headers: benchAuth });
  return response.ok ? ((await response.json()) as CallRecordAnswer) : null;
}

/** One call per platform to each instance (routes loaded, place data read), at the board's town; its point. */
async function warmUp(instances: ProductionServer[], runId: string): Promise<{ latitude: number; longitude: number }> {
  const calls: { call: LiveCall; base: string }[] = [];
  instances.forEach((instance, i) =>
    PLATFORMS.forEach((platform, p) => calls.push({ call: liveCall(platform, `bench-warm-${runId}-${i}-${p}`, 9_000 + i * 3 + p), base: instance.base })),
  );
  for (const [index, { call, base }] of calls.entries()) {
    const answer = await callTool(base, call, "report_emergency", { emergency_type: "medical", severity: "high", location: `${10 + 2 * index} Warmup Lane, ${BOARD_TOWN}` });
    if (answer.status !== 200 || answer.problem) throw new Error(`warm-up ${call.platform} on ${base} answered ${answer.status}: ${answer.problem}`);
  }
  const record = await callRecord(instances[0].base, calls[0].call.conversationId);
  if (record?.latitude == null || record.longitude == null) throw new Error(`the warm-up call at ${BOARD_TOWN} was not located`);
  return { latitude: record.latitude, longitude: record.longitude };
}

/** A's map at street level on the board's town, once the dashboard's first fit is done; waits for the warm-up markers. */
async function zoomToBoardTown(page: Page, point: { latitude: number; longitude: number }): Promise<void> {
  await page.waitForFunction(() => (window as unknown as ProbeWindow).__benchMap !== undefined, undefined, { timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as { __firstMarkerMs?: number }).__firstMarkerMs !== undefined, undefined, { timeout: 60_000 });
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.evaluate(
      ({ latitude, longitude, zoom }) => (window as unknown as ProbeWindow).__benchMap!.setView([latitude, longitude], zoom, { animate: false }),
      { ...point, zoom: MARKER_ZOOM },
    );
    await sleep(1_000);
    if ((await page.evaluate(() => (window as unknown as ProbeWindow).__benchMap!.getZoom())) === MARKER_ZOOM) break;
  }
  await page.waitForFunction(
    () => Object.keys((window as unknown as ProbeWindow).__drawn.markers).filter((title) => title.includes("Warmup Lane")).length >= 6,
    undefined,
    { timeout: 30_000 },
  );
}

/** Part 1: live calls reported to B, one every EVERY_MS; when each shows on A's map and queue. */
async function onTheBoard(page: Page, b: ProductionServer, runId: string) {
  const posts: { call: LiveCall; location: string; postedAt: number; answer: Promise<Answer> }[] = [];
  const started = Date.now();
  for (let index = 0; index < CALLS; index++) {
    await sleep(Math.max(0, started + index * EVERY_MS - Date.now()));
    const call = liveCall(PLATFORMS[index % 3], `bench-board-${runId}-${index}`, index);
    const location = `${200 + 2 * index} Cedar Hollow Road, ${BOARD_TOWN}`;
    const args = { emergency_type: TYPES[index % TYPES.length], severity: index % 2 === 0 ? "critical" : "high", location };
    const postedAt = Date.now();
    posts.push({ call, location, postedAt, answer: callTool(b.base, call, "report_emergency", args) });
  }
  const answers = await Promise.all(posts.map((post) => post.answer));
  // Until every call is on A's map and queue, or the last one's time is up.
  let drawn = await readDrawn(page);
  const deadline = posts.at(-1)!.postedAt + GIVE_UP_MS;
  while (Date.now() < deadline && posts.some((post) => markerOf(drawn, post.location) === null || !drawn.rows[post.call.conversationId])) {
    await sleep(250);
    drawn = await readDrawn(page);
  }
  const outcomes = await Promise.all(
    posts.map(async (post) => {
      const marker = markerOf(drawn, post.location);
      const row = drawn.rows[post.call.conversationId];
      const feed = drawn.feed[post.call.conversationId];
      const record = await callRecord(b.base, post.call.conversationId);
      return {
        conversationId: post.call.conversationId,
        markerMs: marker === null || marker - post.postedAt > GIVE_UP_MS ? null : marker - post.postedAt,
        rowMs: !row || row.at - post.postedAt > GIVE_UP_MS ? null : row.at - post.postedAt,
        feedMs: feed === undefined ? null : feed - post.postedAt,
        mapRead: readAfter(drawn, "map", feed),
        queueRead: readAfter(drawn, "queue", feed),
        rowIncident: row?.incident ?? null,
        record,
      };
    }),
  );
  const incidents = new Set(outcomes.map((outcome) => outcome.record?.incident_id));
  return {
    calls: CALLS,
    every_ms: EVERY_MS,
    marker_on_a: latencySummary(outcomes.map((outcome) => outcome.markerMs)),
    queue_row_on_a: latencySummary(outcomes.map((outcome) => outcome.rowMs)),
    report_answer_on_b: answerSummary(answers),
    // Where the time goes: the change stream reached A's page (before the picture's read, throttled by the page).
    change_event_in_a_page: latencySummary(outcomes.map((outcome) => outcome.feedMs)),
    // Then the page's next read of the map (and of the queue): how long after the event it started, how long it took.
    map_read_wait_after_event: latencySummary(outcomes.map((outcome) => outcome.mapRead?.waitMs ?? null)),
    map_read_duration: latencySummary(outcomes.map((outcome) => outcome.mapRead?.readMs ?? null)),
    queue_read_wait_after_event: latencySummary(outcomes.map((outcome) => outcome.queueRead?.waitMs ?? null)),
    queue_read_duration: latencySummary(outcomes.map((outcome) => outcome.queueRead?.readMs ?? null)),
    calls_on_b: {
      found: outcomes.filter((outcome) => outcome.record !== null).length,
      located: outcomes.filter((outcome) => outcome.record?.latitude != null).length,
      distinct_incidents: incidents.size,
      queue_row_incident_matches: outcomes.filter((outcome) => outcome.rowIncident !== null && outcome.rowIncident === outcome.record?.incident_id).length,
    },
    marker_not_seen: outcomes.filter((outcome) => outcome.markerMs === null).map((outcome) => outcome.conversationId),
    row_not_seen: outcomes.filter((outcome) => outcome.rowMs === null).map((outcome) => outcome.conversationId),
    answer_problems: answers.filter((answer) => answer.problem !== null).map((answer) => `${answer.status}: ${answer.problem}`).slice(0, 10),
  };
}

/** Part 2: IN_PROGRESS calls on the line at once, each report, status, report again, over A and B. */
async function inProgress(a: ProductionServer, b: ProductionServer, runId: string) {
  const answers: { tool: string; platform: Platform; instance: "a" | "b"; startedMs: number; answer: Answer }[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  let callsOn = 0;
  let peakCallsOn = 0;
  const jittered = () => GAP_MS * (0.75 + Math.random() / 2);
  const started = Date.now();
  const timed = async (call: LiveCall, instance: "a" | "b", tool: LiveTool, label: string, args?: Record<string, string>) => {
    peakInFlight = Math.max(peakInFlight, ++inFlight);
    try {
      const startedMs = Date.now() - started;
      const answer = await callTool(instance === "a" ? a.base : b.base, call, tool, args);
      answers.push({ tool: label, platform: call.platform, instance, startedMs, answer });
    } finally {
      inFlight--;
    }
  };
  await Promise.all(
    Array.from({ length: IN_PROGRESS }, async (_, index) => {
      await sleep(Math.round((index / IN_PROGRESS) * RAMP_MS));
      const call = liveCall(PLATFORMS[index % 3], `bench-live-${runId}-${index}`, 5_000 + index);
      const [first, second]: ("a" | "b")[] = index % 2 === 0 ? ["a", "b"] : ["b", "a"];
      peakCallsOn = Math.max(peakCallsOn, ++callsOn);
      const location = `${100 + index} Harbor View Street, ${TOWNS[index % TOWNS.length]}`;
      await timed(call, first, "report_emergency", "report_emergency", { emergency_type: TYPES[index % TYPES.length], severity: index % 3 === 0 ? "critical" : "high", location });
      await sleep(jittered());
      await timed(call, second, "incident_status", "incident_status");
      await sleep(jittered());
      await timed(call, first, "report_emergency", "report_emergency (again)", {
        details: `Caller ${index} says two people are hurt and the street is blocked; access from the north side.`,
        callback_number: call.phone,
      });
      callsOn--;
    }),
  );
  const by = <K extends string>(key: (entry: (typeof answers)[number]) => K) => {
    const groups = new Map<K, Answer[]>();
    for (const entry of answers) groups.set(key(entry), [...(groups.get(key(entry)) ?? []), entry.answer]);
    return Object.fromEntries([...groups].map(([name, group]) => [name, answerSummary(group)]));
  };
  return {
    calls: IN_PROGRESS,
    ramp_ms: RAMP_MS,
    gap_ms: GAP_MS,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    peak_calls_in_progress: peakCallsOn,
    peak_requests_in_flight: peakInFlight,
    answer: answerSummary(answers.map((entry) => entry.answer)),
    by_tool: by((entry) => entry.tool),
    by_platform: by((entry) => entry.platform),
    by_instance: by((entry) => entry.instance),
    // When the slow answers were asked: second of the run -> tool calls started then, and those over 1 s.
    over_1s_by_second: Object.fromEntries(
      [...new Set(answers.filter((entry) => entry.answer.ms > 1_000).map((entry) => Math.floor(entry.startedMs / 1_000)))]
        .sort((x, y) => x - y)
        .map((second) => {
          const then = answers.filter((entry) => Math.floor(entry.startedMs / 1_000) === second);
          return [second, `${then.filter((entry) => entry.answer.ms > 1_000).length}/${then.length}`];
        }),
    ),
    problems: answers.filter((entry) => entry.answer.problem !== null).map((entry) => `${entry.answer.status}: ${entry.answer.problem}`).slice(0, 10),
  };
}

async function main(): Promise<void> {
  const loadAtStart = loadAverage();
  const runId = Date.now().toString(36);
  await withScratchClient(server, async (client, url) => {
    await seedIncidents(client, 0, BACKGROUND - 1, 1);
    await withTwoInstances(
      portA,
      url,
      async (a, b) => {
        const point = await warmUp([a, b], runId);
        const browser = await launchBenchBrowser();
        try {
          const { page } = await newDashboardPage(browser, a.base);
          // A script error in the page would stop it drawing: say so rather than report calls not seen only.
          page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
          await page.addInitScript(PAGE_PROBE);
          await page.goto(a.base, { waitUntil: "commit" });
          await page.getByTestId("feed-mode").filter({ hasText: "Live" }).waitFor({ timeout: 60_000 });
          await page.locator(".queue-total").waitFor({ timeout: 60_000 });
          await zoomToBoardTown(page, point);
          const board = await onTheBoard(page, b, runId);
          const progress = await inProgress(a, b, runId);
          console.log(
            JSON.stringify(
              {
                open_incidents_seeded: BACKGROUND,
                map_view: { ...point, zoom: MARKER_ZOOM },
                on_the_board: board,
                in_progress: progress,
                load_average_start: loadAtStart,
                load_average_end: loadAverage(),
              },
              null,
              2,
            ),
          );
        } finally {
          await browser.close();
        }
      },
      SECRETS,
    );
  });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
