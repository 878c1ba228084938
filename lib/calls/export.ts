import { log } from "../log";
import { csvLine } from "./csv";
import { type CallFilterValues, filterQueryFrom } from "./filters";
import { findCallsAfter, type ListingPosition } from "./query";
import { toCallRecord } from "./to-call-record";
import type { CallRecord } from "./schema";
import { withDatabase } from "../db/with-database";

/** The export's columns, in order; the header row names them. */
export const EXPORT_COLUMNS = [
  "conversation_id", "timestamp", "created_at", "emergency_type", "severity", "status", "location",
  "latitude", "longitude", "simulation", "scenario", "scenario_name", "table_name", "caller_phone",
  "duration_secs", "summary", "platform",
] as const satisfies readonly (keyof CallRecord)[];

/** Rows read per query: one batch is all the export holds in memory at a time. */
export const EXPORT_BATCH_ROWS = 1000;

export interface CallsExport {
  filename: string;
  /** UTF-8 CSV, header first, newest call first. */
  body: ReadableStream<Uint8Array>;
}

/**
 * GET /api/calls/export.csv: every call matching the filters, as CSV, streamed. Batches are read
 * by keyset only when the reader asks for more (the stream's pull), so a slow client holds the
 * database back instead of filling memory, and a client that goes away (`signal`) stops the reads.
 * The first batch is read before answering, so a database that is down still gets its 500.
 */
export async function exportCalls(values: CallFilterValues, signal: AbortSignal): Promise<CallsExport> {
  const { filters } = filterQueryFrom(values);
  const encoder = new TextEncoder();
  let after: ListingPosition | undefined;
  const nextBatch = async (): Promise<{ text: string; last: boolean }> => {
    const rows = await withDatabase((db) => findCallsAfter(db, filters, after, EXPORT_BATCH_ROWS));
    const last = rows.at(-1);
    if (last) after = { occurredAt: last.occurredAt, id: last.id };
    const text = rows
      .map((row) => {
        const record = toCallRecord(row);
        return csvLine(EXPORT_COLUMNS.map((column) => record[column]));
      })
      .join("");
    return { text, last: rows.length < EXPORT_BATCH_ROWS };
  };

  const first = await nextBatch();
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvLine([...EXPORT_COLUMNS]) + first.text));
        if (first.last) controller.close();
      },
      async pull(controller) {
        // The client went away: read nothing more.
        if (signal.aborted) return controller.error(signal.reason);
        try {
          const batch = await nextBatch();
          if (batch.text) controller.enqueue(encoder.encode(batch.text));
          if (batch.last) controller.close();
        } catch (error) {
          // Too late for an error status: the client sees a truncated file.
          log.error({ err: error }, "calls export failed part-way");
          controller.error(error);
        }
      },
    },
    // At most one encoded batch waits: the next read starts only once the client took the last.
    { highWaterMark: 1 },
  );
  const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, "");
  return { filename: `mayday-calls-${stamp}.csv`, body };
}
