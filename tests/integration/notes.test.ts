import { apiRequest, testAdmin } from "@/tests/support/auth";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as changesRoute } from "@/app/api/calls/changes/route";
import { GET as streamRoute } from "@/app/api/calls/stream/route";
import { GET as eidoRoute } from "@/app/api/incidents/[id]/eido/route";
import { POST as merge } from "@/app/api/incidents/[id]/merge/route";
import { GET as listNotesRoute, POST as addNoteRoute } from "@/app/api/incidents/[id]/notes/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { groupNow } from "@/lib/incidents/grouper";
import { readFeedHead } from "@/lib/feed";
import { changePageSchema, feedChangeSchema } from "@/lib/board/schema";
import { stopChangeTail } from "@/lib/board/change-tail";
import { NOTE_MAX_CHARACTERS, noteSchema, notesPageSchema } from "@/lib/notes/schema";
import { closeRedis } from "@/lib/redis";
import { createUnit } from "@/lib/units/roster";
import pg from "pg";
import { insertCalls, makeCalls } from "../support/calls";
import { signedIn } from "../support/people";
import { readEvents } from "../support/sse";

// Only a notification can deliver within the stream test's wait: the safety read is far off.
process.env.LIVE_FEED_SAFETY_READ_MS = "600000";
resetConfigForTests();

const context = (id: string) => ({ params: Promise.resolve({ id }) });
const url = (id: string, query = "") => `http://localhost/api/incidents/${id}/notes${query}`;

function postNote(id: string, body: unknown, headers: Record<string, string> = {}) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  return addNoteRoute(apiRequest(url(id), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: raw }), context(id));
}

async function notesOf(id: string, query = "") {
  const response = await listNotesRoute(apiRequest(url(id, query)), context(id));
  expect(response.status).toBe(200);
  return notesPageSchema.parse(await response.json());
}

let seed = 500;
/** A fresh incident of one stored call (each fixture call has an incident of its own); `simulated` picks its kind. */
async function newIncident(simulated: boolean): Promise<string> {
  const db = await getDb();
  const [call] = makeCalls(40, ++seed).filter((candidate) => candidate.simulation === simulated);
  await insertCalls(db, [call]);
  const { incidentId } = await db.call.findUniqueOrThrow({ where: { id: call.id } });
  return incidentId;
}

const storedNotes = async (incidentId: string) =>
  (await getDb()).$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM incident_notes WHERE incident_id = ${incidentId}`.then(([row]) => row.n);

afterAll(async () => {
  await stopChangeTail();
  await closeRedis();
});

describe("incident notes", () => {
  let incident: string;
  beforeAll(async () => {
    incident = await newIncident(false);
  });

  it("keeps a note with its author and time, lists newest first, and records it in the audit trail", async () => {
    const first = await postNote(incident, { text: "  Units from station 12 sent  " });
    expect(first.status).toBe(201);
    const kept = noteSchema.parse(await first.json());
    expect(kept).toMatchObject({ incident_id: incident, text: "Units from station 12 sent", author: { kind: "key", id: "API_KEY", name: "API_KEY" } });
    const dispatcher = await signedIn("dispatcher", "Dana Dispatcher");
    const second = await postNote(incident, { text: "Caller called back, no answer" }, { cookie: dispatcher.cookie });
    expect(second.status).toBe(201);
    const page = await notesOf(incident);
    expect(page.notes.map((note) => [note.text, note.author.name])).toEqual([
      ["Caller called back, no answer", "Dana Dispatcher"],
      ["Units from station 12 sent", "API_KEY"],
    ]);
    expect(page.notes[0].author).toEqual({ kind: "user", id: dispatcher.user.id, name: "Dana Dispatcher" });
    const audit = await (await getDb()).auditEvent.findMany({ where: { action: "incident.note_added", targetId: incident }, orderBy: { at: "asc" } });
    expect(audit.map((row) => [row.actorName, (row.after as { text: string }).text])).toEqual([
      ["API_KEY", "Units from station 12 sent"],
      ["Dana Dispatcher", "Caller called back, no answer"],
    ]);
  });

  it("keeps a unit's radio report naming the unit, and refuses an unknown unit writing nothing", async () => {
    const unit = await createUnit({ call_sign: "Engine 4", name: "Engine 4", type: "engine", station: null, in_service: true }, testAdmin);
    const response = await postNote(incident, { text: "Fire showing at Oak and 3rd", unit_id: unit.id });
    expect(response.status).toBe(201);
    expect(noteSchema.parse(await response.json())).toMatchObject({ text: "Fire showing at Oak and 3rd", unit: { id: unit.id, call_sign: "Engine 4" } });
    expect((await notesOf(incident)).notes[0].unit).toEqual({ id: unit.id, call_sign: "Engine 4" });
    const audit = await (await getDb()).auditEvent.findFirstOrThrow({ where: { action: "incident.note_added", targetId: incident }, orderBy: { at: "desc" } });
    expect(audit.after).toMatchObject({ unit_id: unit.id, unit_call_sign: "Engine 4" });
    const before = await storedNotes(incident);
    const unknown = await postNote(incident, { text: "Who is this?", unit_id: "no-such-unit" });
    expect(unknown.status).toBe(404);
    expect(await storedNotes(incident)).toBe(before);
  });

  it("keeps 50 notes sent at once, each once, numbered in the order their times say", async () => {
    const target = await newIncident(false);
    const texts = Array.from({ length: 50 }, (_, index) => `parallel note ${index}`);
    const responses = await Promise.all(texts.map((text) => postNote(target, { text })));
    expect(responses.map((response) => response.status)).toEqual(texts.map(() => 201));
    const kept = await Promise.all(responses.map(async (response) => noteSchema.parse(await response.json())));
    const page = await notesOf(target, "?limit=200");
    expect(page.next).toBeNull();
    expect(page.notes.map((note) => note.text).sort()).toEqual([...texts].sort());
    // Newest first: ids falling, times never rising; the listing is exactly what the answers said.
    const ids = page.notes.map((note) => BigInt(note.id));
    expect(ids.every((id, index) => index === 0 || id < ids[index - 1])).toBe(true);
    const times = page.notes.map((note) => Date.parse(note.created_at));
    expect(times.every((time, index) => index === 0 || time <= times[index - 1])).toBe(true);
    expect([...page.notes].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...kept].sort((a, b) => a.id.localeCompare(b.id)));
    // Keyset pages walk the same list.
    const firstPage = await notesOf(target, "?limit=20");
    const secondPage = await notesOf(target, `?limit=20&before=${firstPage.next}`);
    expect([...firstPage.notes, ...secondPage.notes]).toEqual(page.notes.slice(0, 40));
  });

  it("refuses a 100 KB note with 413, an over-long, empty or missing text with 400, and stores none of them", async () => {
    const target = await newIncident(false);
    const huge = await postNote(target, { text: "x".repeat(100 * 1024) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: expect.any(String) });
    const long = await postNote(target, { text: "y".repeat(NOTE_MAX_CHARACTERS + 1) });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: "Invalid text", message: `text must be at most ${NOTE_MAX_CHARACTERS} characters` });
    for (const body of [{ text: "   " }, {}, { text: 42 }, "not json"]) expect((await postNote(target, body)).status).toBe(400);
    expect((await postNote(target, { text: "z".repeat(NOTE_MAX_CHARACTERS) })).status).toBe(201);
    expect(await storedNotes(target)).toBe(1);
  });

  it("answers 404 for an unknown incident, and lets only those who may act on the incident write", async () => {
    expect((await postNote("no-such-incident", { text: "hello" })).status).toBe(404);
    expect((await listNotesRoute(apiRequest(url("no-such-incident")), context("no-such-incident"))).status).toBe(404);
    const real = await newIncident(false);
    const training = await newIncident(true);
    const viewer = await signedIn("viewer");
    const trainer = await signedIn("trainer");
    expect((await postNote(real, { text: "viewer" }, { cookie: viewer.cookie })).status).toBe(403);
    expect((await postNote(real, { text: "trainer on a real incident" }, { cookie: trainer.cookie })).status).toBe(403);
    expect((await postNote(training, { text: "trainer on a training incident" }, { cookie: trainer.cookie })).status).toBe(201);
    expect(await storedNotes(real)).toBe(0);
    const viewerRead = await listNotesRoute(apiRequest(url(training), { headers: { cookie: viewer.cookie } }), context(training));
    expect(viewerRead.status).toBe(200);
  });

  it("is carried in the change feed, in number order with the calls", async () => {
    const target = await newIncident(false);
    const start = await readFeedHead(await getDb());
    const kept = noteSchema.parse(await (await postNote(target, { text: "feed note" })).json());
    expect(await readFeedHead(await getDb())).toBeGreaterThan(start);
    const response = await changesRoute(apiRequest(`http://localhost/api/calls/changes?after=${start}`), undefined);
    const page = changePageSchema.parse(await response.json());
    expect(page.changes).toEqual([{ change: page.cursor, note: kept }]);
  });

  it.runIf(inject("testDatabase").kind === "postgresql")("reaches an open stream when another instance keeps a note (NOTIFY from the note's trigger)", async () => {
    const target = await newIncident(false);
    const controller = new AbortController();
    const response = await streamRoute(apiRequest("http://localhost/api/calls/stream", { signal: controller.signal }), undefined);
    const stream = readEvents(response.body!);
    await stream.until(() => stream.comments.some((comment) => comment.startsWith("connected")));
    // Another instance: its own connection, its own transaction, only the database in common.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query(`INSERT INTO incident_notes (incident_id, text, author_ref, author_name) VALUES ($1, 'from elsewhere', 'key:API_KEY', 'API_KEY')`, [target]);
    } finally {
      await other.end();
    }
    await stream.until(() => stream.events.some((event) => event.data?.includes("from elsewhere")));
    const change = feedChangeSchema.parse(JSON.parse(stream.events.find((event) => event.data?.includes("from elsewhere"))!.data!));
    expect(change).toMatchObject({ note: { incident_id: target, text: "from elsewhere" } });
    controller.abort();
  });

  it("moves the merged incident's notes to the one that stays", async () => {
    const kept = await newIncident(false);
    const merged = await newIncident(false);
    await postNote(kept, { text: "on the kept incident" });
    await postNote(merged, { text: "on the merged incident" });
    const response = await merge(
      apiRequest(`http://localhost/api/incidents/${kept}/merge`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ other_id: merged }) }),
      context(kept),
    );
    expect(response.status).toBe(200);
    expect((await notesOf(kept)).notes.map((note) => note.text).sort()).toEqual(["on the kept incident", "on the merged incident"]);
    expect(await storedNotes(merged)).toBe(0);
  });

  it("follows a waiting call into the incident the grouper places it in", async () => {
    const db = await getDb();
    const [fixture] = makeCalls(1, 77);
    const at = Date.UTC(2026, 5, 1, 12);
    const call = (name: string, offset: number, groupingPending: boolean) =>
      db.call.create({
        data: {
          ...fixture, id: crypto.randomUUID(), simulatedRecord: undefined, locationCivic: undefined, callId: null, conversationId: `conv_notes_${name}_${at}`,
          simulation: false, scenario: null, scenarioName: null, tableName: "calls", exerciseId: null, status: "active",
          emergencyType: "fire", latitude: -45.1234 + offset * 0.0001, longitude: -160.4321, occurredAt: new Date(at + offset * 60_000), groupingPending,
        },
      });
    const first = await call("first", 0, false);
    const waiting = await call("waiting", 1, true);
    await postNote(waiting.incidentId, { text: "written while the call waited" });
    await groupNow();
    const placed = await db.call.findUniqueOrThrow({ where: { id: waiting.id } });
    expect(placed.incidentId).toBe(first.incidentId);
    expect(await db.incident.findUnique({ where: { id: waiting.incidentId } })).toBeNull();
    expect((await notesOf(first.incidentId)).notes.map((note) => note.text)).toEqual(["written while the call waited"]);
  });

  it("is carried in the incident's EIDO export, oldest first, with its author", async () => {
    const target = await newIncident(false);
    await postNote(target, { text: "Engine 7 on scene" });
    await postNote(target, { text: "Fire knocked down" });
    const response = await eidoRoute(apiRequest(`http://localhost/api/incidents/${target}/eido`), context(target));
    expect(response.status).toBe(200);
    const eido = (await response.json()) as { notesComponent: { notesActionComments: string }[] };
    const comments = eido.notesComponent.map((note) => note.notesActionComments);
    expect(comments.filter((comment) => /Engine 7|knocked down/.test(comment))).toEqual(["Engine 7 on scene (API_KEY)", "Fire knocked down (API_KEY)"]);
  });

  it("never changes what a kept note says, who wrote it or when", async () => {
    const target = await newIncident(false);
    await postNote(target, { text: "as written" });
    const db = await getDb();
    await expect(db.$executeRaw`UPDATE incident_notes SET text = 'rewritten' WHERE incident_id = ${target}`).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`UPDATE incident_notes SET author_name = 'someone else' WHERE incident_id = ${target}`).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`UPDATE incident_notes SET created_at = now() - interval '1 hour' WHERE incident_id = ${target}`).rejects.toThrow(/append-only/);
    expect((await notesOf(target)).notes.map((note) => note.text)).toEqual(["as written"]);
  });
});
