import { trainingOnlySql } from "../access/status-rule";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withDatabase } from "../db/with-database";
import { OPEN_STATUSES } from "../calls/workflow";
import type { Precision } from "../geocoding/types";
import { readPossibleDuplicates } from "../incidents/duplicates";
import { type CallStatus, SEVERITIES, type Severity, severityOrFallback } from "../vocabulary";
import { decodeQueueKey, encodeQueueKey } from "./call-queue";
import type { IncidentQueuePage, LiveIncident } from "./schema";
import { andIncidentShown, type ExerciseVisibility } from "./exercise-visibility";

/**
 * The dashboard's incident picture (docs/dashboard.md, "Incidents"): the incident queue, and the
 * rows the queue and the incident map show, each with its latest call. Severity of an incident is
 * always critical, high or moderate (refresh_incidents maps any other to moderate), so each rank
 * is one equality on the index (severity, status, first_call_at, id).
 */

const RANKED = [
  { rank: 0, severity: "critical" },
  { rank: 1, severity: "high" },
  { rank: 2, severity: "moderate" },
] as const;

interface IncidentRow {
  id: string;
  emergencyType: string;
  severity: string;
  status: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  locationPrecision: string | null;
  locationUncertaintyM: number | null;
  locationMatched: string | null;
  queuedAt: Date;
  dispatchedAt: Date | null;
  firstCallAt: Date;
  lastCallAt: Date;
  callCount: number;
  training: boolean;
  latestId: string;
  latestAt: Date;
  latestSummary: string;
  latestPhone: string | null;
  latestExercise: string | null;
  onLineSince: Date | null;
}

/**
 * The incidents `ids` names (the rows of one page, at most a few hundred), each with its latest
 * call: one backward probe of calls (incident_id, occurred_at, id) per incident.
 */
export async function readLiveIncidents(db: Db, ids: readonly string[]): Promise<Map<string, LiveIncident>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<IncidentRow[]>(Prisma.sql`
    SELECT i.id, i.emergency_type AS "emergencyType", i.severity, i.status, i.location, i.latitude, i.longitude,
      i.location_precision AS "locationPrecision", i.location_uncertainty_m AS "locationUncertaintyM", i.location_matched AS "locationMatched", i.queued_at AS "queuedAt", i.dispatched_at AS "dispatchedAt", i.first_call_at AS "firstCallAt", i.last_call_at AS "lastCallAt", i.call_count AS "callCount",
      ${trainingOnlySql(Prisma.sql`i.id`)} AS training,
      l.conversation_id AS "latestId", l.occurred_at AS "latestAt", l.summary AS "latestSummary",
      l.caller_phone AS "latestPhone", l.exercise_id AS "latestExercise",
      (SELECT min(o.occurred_at) FROM calls o WHERE o.incident_id = i.id AND o.on_line) AS "onLineSince"
    FROM incidents i
    JOIN LATERAL (
      SELECT conversation_id, occurred_at, summary, caller_phone, exercise_id FROM calls c
      WHERE c.incident_id = i.id
      ORDER BY c.occurred_at DESC, c.id DESC
      LIMIT 1
    ) l ON true
    WHERE i.id IN (${Prisma.join(ids)})`);
  const duplicates = await readPossibleDuplicates(db, ids);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        emergency_type: row.emergencyType,
        severity: row.severity,
        status: row.status as CallStatus,
        location: row.location,
        location_matched: row.locationMatched,
        latitude: row.latitude,
        longitude: row.longitude,
        location_precision: row.locationPrecision as Precision | null,
        location_uncertainty_m: row.locationUncertaintyM,
        possible_duplicates: duplicates.get(row.id) ?? [],
        first_call_at: row.firstCallAt.toISOString(),
        last_call_at: row.lastCallAt.toISOString(),
        call_count: row.callCount,
        training: row.training,
        queued_at: row.queuedAt.toISOString(),
        dispatched_at: row.dispatchedAt?.toISOString() ?? null,
        on_line_since: row.onLineSince === null ? null : Math.floor(row.onLineSince.getTime() / 1000),
        latest_call: {
          conversation_id: row.latestId,
          timestamp: Math.floor(row.latestAt.getTime() / 1000),
          summary: row.latestSummary,
          caller_phone: row.latestPhone,
          exercise_id: row.latestExercise,
        },
      },
    ]),
  );
}

/** The queue's sections (docs/dashboard.md, "Incident queue"): waiting for a first dispatch, and dispatched or en route. */
export const QUEUE_SECTIONS = { waiting: ["active"], dispatched: ["dispatched", "enroute"] } as const satisfies Record<string, readonly CallStatus[]>;
export type QueueSection = keyof typeof QUEUE_SECTIONS;
/** priority: severity, then the longest waiting (earliest first call); received: the latest first call first. */
export type QueueSort = "priority" | "received";
/** Real incidents, or training ones (simulated: an exercise's or the simulator's); the queue lists real ones first. */
export type IncidentKind = "real" | "training";
const KINDS: readonly IncidentKind[] = ["real", "training"];

export interface QueueOptions {
  visibility?: ExerciseVisibility;
  /** One section's statuses; absent: every open status. */
  section?: QueueSection;
  /** One kind; absent: both, every real incident before any training one. */
  kind?: IncidentKind;
  sort?: QueueSort;
  /** Only incidents with a call of this scenario (and of this area of it). */
  scenario?: string;
  area?: string;
}

/** ` AND` an incident has a call of the scenario (and area): one probe of its calls, whatever is stored elsewhere. */
function andInPlace({ scenario, area }: QueueOptions): Prisma.Sql {
  if (scenario === undefined && area === undefined) return Prisma.empty;
  const conditions = [
    ...(scenario === undefined ? [] : [Prisma.sql`f.scenario = ${scenario}`]),
    ...(area === undefined ? [] : [Prisma.sql`f.area = ${area}`]),
  ];
  return Prisma.sql` AND EXISTS (SELECT 1 FROM calls f WHERE f.incident_id = i.id AND ${Prisma.join(conditions, " AND ")})`;
}

/**
 * The incident queue: open incidents (of one section, or all; of one kind, or both, every real
 * incident before any training one), keyset pages without a cap, in the server's one order, on the
 * queue's time (queued_at: the earliest call's platform time, or its receipt when that time is
 * implausible, prisma/functions/call_queue_time.sql). By priority: critical, high, then moderate,
 * the longest waiting first, ties by id; one branch per (kind, severity, status) reads its index
 * (simulation, severity, status, queued_at, id) forwards and stops after a page. By time
 * received: the latest first; one branch per (kind, status) on (simulation, status, queued_at, id),
 * read backwards. A branch's rank orders the kinds and severities; the keyset is (rank, queued_at,
 * id). The database merges the branches; a page never reads more than a page per branch, however
 * deep it is or however many calls are stored. `total` counts the section's incidents under the
 * same filters (open incidents only).
 */
export async function readIncidentQueueFrom(db: Db, after: string | undefined, limit: number, options: QueueOptions = {}): Promise<IncidentQueuePage> {
  const { visibility = "show", section, kind, sort = "priority" } = options;
  const statuses: readonly CallStatus[] = section === undefined ? OPEN_STATUSES : QUEUE_SECTIONS[section];
  const kinds = kind === undefined ? KINDS : [kind];
  const shown = Prisma.sql`${andIncidentShown(visibility, "i")}${andInPlace(options)}`;
  const key = after === undefined ? undefined : decodeQueueKey(after);
  const ranks = kinds.flatMap((each): { rank: number; training: boolean; severity: Severity | undefined }[] => {
    const training = each === "training";
    const kindRank = KINDS.indexOf(each);
    return sort === "received"
      ? [{ rank: kindRank, training, severity: undefined }]
      : RANKED.map(({ rank, severity }) => ({ rank: kindRank * RANKED.length + rank, training, severity }));
  });
  const branches: Prisma.Sql[] = [];
  for (const { rank, training, severity } of ranks) {
    if (key && rank < key.rank) continue;
    const resume = key && rank === key.rank;
    for (const status of statuses) {
      if (severity === undefined) {
        const keyset = resume ? Prisma.sql`AND (i.queued_at, i.id) < (${new Date(key.occurredMs)}, ${key.id})` : Prisma.empty;
        branches.push(Prisma.sql`(
          SELECT i.id, ${rank}::int AS rank, i.queued_at FROM incidents i
          WHERE i.simulation = ${training} AND i.status = ${status} ${keyset}${shown}
          ORDER BY i.queued_at DESC, i.id DESC
          LIMIT ${limit + 1})`);
      } else {
        const keyset = resume ? Prisma.sql`AND (i.queued_at, i.id) > (${new Date(key.occurredMs)}, ${key.id})` : Prisma.empty;
        branches.push(Prisma.sql`(
          SELECT i.id, ${rank}::int AS rank, i.queued_at FROM incidents i
          WHERE i.simulation = ${training} AND i.severity = ${severity} AND i.status = ${status} ${keyset}${shown}
          ORDER BY i.queued_at, i.id
          LIMIT ${limit + 1})`);
      }
    }
  }
  const order = sort === "received" ? Prisma.sql`rank, queued_at DESC, id DESC` : Prisma.sql`rank, queued_at, id`;
  const ofKind = kind === undefined ? Prisma.empty : Prisma.sql` AND i.simulation = ${kind === "training"}`;
  const [page, [{ total }]] = await Promise.all([
    branches.length === 0
      ? []
      : db.$queryRaw<{ id: string; rank: number; queuedAt: Date }[]>(Prisma.sql`
      SELECT id, rank, queued_at AS "queuedAt" FROM (${Prisma.join(branches, " UNION ALL ")}) AS branches
      ORDER BY ${order}
      LIMIT ${limit + 1}`),
    db.$queryRaw<{ total: bigint }[]>(Prisma.sql`
      SELECT count(*)::bigint AS total FROM incidents i WHERE i.status IN (${Prisma.join([...statuses])})${ofKind}${shown}`),
  ]);
  const shownRows = page.slice(0, limit);
  const incidents = await readLiveIncidents(db, shownRows.map((row) => row.id));
  const last = shownRows.at(-1);
  return {
    // An incident merged away between the two reads is left out; the next refresh shows the merge.
    incidents: shownRows.flatMap((row) => incidents.get(row.id) ?? []),
    next:
      page.length > limit && last
        ? encodeQueueKey({ rank: last.rank, occurredMs: last.queuedAt.getTime(), id: last.id })
        : null,
    total: Number(total),
  };
}

/** GET /api/live/incidents. */
export function readIncidentQueue(after: string | undefined, limit: number, options: QueueOptions): Promise<IncidentQueuePage> {
  return withDatabase((db) => readIncidentQueueFrom(db, after, limit, options));
}

/**
 * The board's counts of open incidents, in all and per severity (what the queue lists and its
 * tiles count): an index-only count over the open statuses (it grows with open incidents, not
 * with stored calls).
 */
export async function countOpenIncidents(db: Db, visibility: ExerciseVisibility): Promise<{ total: number; bySeverity: Record<Severity, number> }> {
  const rows = await db.$queryRaw<{ severity: string; open: bigint }[]>(Prisma.sql`
    SELECT i.severity, count(*)::bigint AS open FROM incidents i
    WHERE i.status IN (${Prisma.join(OPEN_STATUSES.map((status) => Prisma.sql`${status}`))})${andIncidentShown(visibility, "i")}
    GROUP BY i.severity`);
  const bySeverity = Object.fromEntries(SEVERITIES.map((level) => [level, 0])) as Record<Severity, number>;
  for (const row of rows) bySeverity[severityOrFallback(row.severity)] += Number(row.open);
  return { total: rows.reduce((sum, row) => sum + Number(row.open), 0), bySeverity };
}
