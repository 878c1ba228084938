import { getConfig } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { fetchRecording, type FetchOutcome } from "./recording-fetch";
import { linkRecording } from "./recording-link";

/**
 * The one door of recording_fetches, the queue of Vapi's and Retell's recording links to copy into
 * object storage (docs/webhook.md, "Recordings"). A link is queued before its call is stored, so
 * no stop of the process loses it; an archiver (lib/intake/recording-archiver.ts) claims due links
 * a few at a time, oldest due first: the claim (`FOR UPDATE SKIP LOCKED`, one statement) counts
 * the attempt and moves its due time past the fetch's timeout, so another instance's archiver
 * skips it, and takes it over should this one stop mid-fetch. A failed attempt is due again after
 * a backoff; the link is given up after RecordingRetry.attempts attempts, or at once when another
 * attempt cannot help. Only pending links are in the sweep's index (recording_fetches_due_idx).
 * A link may come with a fallback (Vapi's presigned link to the same audio), fetched in the same
 * attempt when the link itself is refused with 401 or 403.
 */

export interface RecordingRetry {
  /** The wait after the first failed attempt, doubling after each further one up to maxMs. */
  firstMs: number;
  maxMs: number;
  /** Attempts in all before a link is given up. */
  attempts: number;
}

/** 1 min doubling to 6 h, 12 attempts: about 20 hours, beyond a platform's outage, well within its retention. */
export const RECORDING_RETRY: RecordingRetry = { firstMs: 60_000, maxMs: 6 * 60 * 60 * 1000, attempts: 12 };

/** Links one archiver claims, and fetches side by side, at a time. */
export const RECORDING_BATCH = 4;

export interface QueuedLink {
  conversationId: string;
  url: string;
  /** Fetched when `url` answers 401 or 403; null when the platform sent none. */
  fallbackUrl: string | null;
}

/** The source's answers that another link to the same audio may get past: it wants credentials. */
const REFUSED = new Set([401, 403]);

/**
 * Queues the links of calls about to be stored: a new link is due at once; the same link again
 * changes nothing but its fallback (a presigned link is made anew for each delivery, so the latest
 * is the one still valid); another link of a call not archived yet takes its place, with attempts anew.
 */
export async function queueRecordingFetches(db: Db, links: readonly QueuedLink[]): Promise<void> {
  // One row per conversation in the statement (its later event's link).
  const latest = [...new Map(links.map((link) => [link.conversationId, link])).values()];
  if (latest.length === 0) return;
  await db.$executeRaw`
    INSERT INTO recording_fetches (conversation_id, url, fallback_url, next_attempt_at)
    SELECT l.conversation_id, l.url, l.fallback_url, now()
    FROM unnest(${latest.map((link) => link.conversationId)}::text[], ${latest.map((link) => link.url)}::text[],
      ${latest.map((link) => link.fallbackUrl)}::text[]) AS l(conversation_id, url, fallback_url)
    ON CONFLICT (conversation_id) DO UPDATE SET url = EXCLUDED.url, fallback_url = EXCLUDED.fallback_url, updated_at = now(),
      state = CASE WHEN recording_fetches.url <> EXCLUDED.url THEN 'pending' ELSE recording_fetches.state END,
      attempts = CASE WHEN recording_fetches.url <> EXCLUDED.url THEN 0 ELSE recording_fetches.attempts END,
      next_attempt_at = CASE WHEN recording_fetches.url <> EXCLUDED.url THEN now() ELSE recording_fetches.next_attempt_at END,
      last_error = CASE WHEN recording_fetches.url <> EXCLUDED.url THEN NULL ELSE recording_fetches.last_error END
    WHERE recording_fetches.state <> 'archived'
      AND (recording_fetches.url <> EXCLUDED.url OR recording_fetches.fallback_url IS DISTINCT FROM EXCLUDED.fallback_url)`;
}

interface Claimed {
  conversation_id: string;
  url: string;
  fallback_url: string | null;
  /** Attempts begun, this one included. */
  attempts: number;
}

async function claimDue(db: Db, leaseMs: number): Promise<Claimed[]> {
  return db.$queryRaw<Claimed[]>`
    UPDATE recording_fetches f
    SET attempts = f.attempts + 1, next_attempt_at = now() + ${leaseMs}::float8 * interval '1 millisecond', updated_at = now()
    FROM (
      SELECT conversation_id FROM recording_fetches
      WHERE state = 'pending' AND next_attempt_at <= now()
      ORDER BY next_attempt_at
      LIMIT ${RECORDING_BATCH}
      FOR UPDATE SKIP LOCKED
    ) due
    WHERE f.conversation_id = due.conversation_id
    RETURNING f.conversation_id, f.url, f.fallback_url, f.attempts`;
}

/** Records the attempt's outcome, unless another link took the row's place meanwhile. */
async function settle(db: Db, row: Claimed, outcome: FetchOutcome, retry: RecordingRetry): Promise<void> {
  if (outcome.kind === "archived") {
    await linkRecording(db, outcome);
    await db.$executeRaw`
      UPDATE recording_fetches SET state = 'archived', next_attempt_at = NULL, last_error = NULL, updated_at = now()
      WHERE conversation_id = ${row.conversation_id} AND url = ${row.url}`;
    log.info({ conversationId: row.conversation_id, recordingKey: outcome.key, sizeBytes: outcome.sizeBytes }, "recording archived");
    return;
  }
  const givenUp = outcome.final || row.attempts >= retry.attempts;
  const delayMs = Math.min(retry.maxMs, retry.firstMs * 2 ** (row.attempts - 1));
  await db.$executeRaw`
    UPDATE recording_fetches SET state = ${givenUp ? "given_up" : "pending"}, last_error = ${outcome.error}, updated_at = now(),
      next_attempt_at = CASE WHEN ${givenUp} THEN NULL ELSE now() + ${delayMs}::float8 * interval '1 millisecond' END
    WHERE conversation_id = ${row.conversation_id} AND url = ${row.url}`;
  log.warn({ conversationId: row.conversation_id, attempt: row.attempts, givenUp, error: outcome.error }, "recording fetch failed");
}

/** The link's audio; its fallback's when the link is refused with 401/403 (the error then names both answers). */
async function fetchClaimed(row: Claimed): Promise<FetchOutcome> {
  const outcome = await fetchRecording(row.conversation_id, row.url);
  if (outcome.kind === "archived" || row.fallback_url === null || !REFUSED.has(outcome.status ?? 0)) return outcome;
  const fallback = await fetchRecording(row.conversation_id, row.fallback_url);
  return fallback.kind === "archived" ? fallback : { ...fallback, error: `${outcome.error}; presigned link: ${fallback.error}` };
}

/** Claims one batch of due links, fetches each into storage and links it; answers how many it claimed. */
export async function archiveDueRecordings(db: Db, retry: RecordingRetry = RECORDING_RETRY): Promise<number> {
  // Past the fetch's own timeout, the claim lapses: the process stopped mid-fetch.
  const claimed = await claimDue(db, getConfig().RECORDING_FETCH_TIMEOUT_MS + 60_000);
  const settled = await Promise.allSettled(
    claimed.map(async (row) => {
      const outcome: FetchOutcome = row.attempts > retry.attempts
        ? { kind: "failed", error: "the last attempt never finished", final: true }
        : await fetchClaimed(row);
      await settle(db, row, outcome, retry);
    }),
  );
  const failure = settled.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  return claimed.length;
}
