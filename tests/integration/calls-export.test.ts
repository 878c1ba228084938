import { apiRequest, TEST_API_KEY } from "@/tests/support/auth";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as exportCsv } from "@/app/api/calls/export.csv/route";
import { GET as listCalls } from "@/app/api/calls/route";
import { signedIn } from "@/tests/support/people";
import { EXPORT_BATCH_ROWS, EXPORT_COLUMNS } from "@/lib/calls/export";
import type { CallList } from "@/lib/calls/schema";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { setRateLimiterForTests } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";
import { byListingOrder, insertCalls, makeCalls } from "../support/calls";
import { parseCsv } from "../support/csv";

// More than two batches, with ties in time across their edges (makeCalls repeats milliseconds).
const calls = makeCalls(EXPORT_BATCH_ROWS * 2 + 345, 11);
const HOSTILE = [
  '=HYPERLINK("http://example.com","x")',
  "+1",
  "-2",
  "@SUM(A1)",
  "\tx",
  "\rx",
  'Caller said "help", twice\r\nthen hung up',
];
HOSTILE.forEach((text, index) => {
  calls[index * 7].summary = text;
  calls[index * 7 + 1].location = text;
});

const exportRequest = (query: string, init: RequestInit = {}) =>
  exportCsv(apiRequest(`http://localhost/api/calls/export.csv?${query}`, init), undefined);

async function exported(query: string): Promise<{ header: string[]; rows: Record<string, string>[] }> {
  const response = await exportRequest(query);
  expect(response.status).toBe(200);
  const [header, ...lines] = parseCsv(new TextDecoder("utf-8", { fatal: true }).decode(await response.arrayBuffer()));
  return { header, rows: lines.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]]))) };
}

/** The listing's ids for the same filters, page by page. */
async function listedIds(query: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const response = await listCalls(apiRequest(`http://localhost/api/calls?${query}&limit=1000&offset=${offset}`), undefined);
    const page = (await response.json()) as CallList;
    ids.push(...page.calls.map((call) => call.conversation_id));
    if (!page.pagination.has_more) return ids;
  }
}

beforeAll(async () => {
  await insertCalls(await getDb(), calls);
});

afterEach(() => {
  process.env.API_KEY = TEST_API_KEY;
  resetConfigForTests();
  setRateLimiterForTests(undefined);
});

describe("GET /api/calls/export.csv", () => {
  it("streams every call, newest first, with a header row, as a UTF-8 attachment", async () => {
    const response = await exportRequest("");
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="mayday-calls-[0-9T-]+\.csv"$/);
    await response.body?.cancel();

    const { header, rows } = await exported("");
    expect(header).toEqual([...EXPORT_COLUMNS]);
    expect(rows.map((row) => row.conversation_id)).toEqual([...calls].sort(byListingOrder).map((call) => call.conversationId));
    const first = [...calls].sort(byListingOrder)[0];
    expect(rows[0]).toMatchObject({
      timestamp: String(Math.floor(first.occurredAt.getTime() / 1000)),
      severity: first.severity,
      status: first.status,
      simulation: String(first.simulation),
      latitude: first.latitude === null ? "" : String(first.latitude),
      duration_secs: String(first.durationSecs),
    });
  });

  it("writes text that a spreadsheet would run as a formula as text, with a leading '", async () => {
    const { rows } = await exported("");
    const byId = new Map(rows.map((row) => [row.conversation_id, row]));
    HOSTILE.forEach((text, index) => {
      const neutral = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
      expect(byId.get(calls[index * 7].conversationId)?.summary).toBe(neutral);
      expect(byId.get(calls[index * 7 + 1].conversationId)?.location).toBe(neutral);
    });
    // Negative numbers are numbers, not formulas.
    const west = calls.find((call) => call.longitude !== null)!;
    expect(byId.get(west.conversationId)?.longitude).toBe(String(west.longitude));
  });

  it.each([
    "severity=critical",
    "status=resolved&simulation=true",
    "table_name=calls",
    "location=main",
    "emergency_type=structure_fire&start_date=2026-03-02&end_date=2026-03-04",
    "start_date=2026-03-01T12:00:00Z",
  ])("exports exactly the calls GET /api/calls lists for %s", async (query) => {
    const ids = await listedIds(query);
    expect(ids.length).toBeGreaterThan(0);
    expect((await exported(query)).rows.map((row) => row.conversation_id)).toEqual(ids);
  });

  it.each([
    ["severity=urgent", "severity must be one of critical, high, moderate"],
    ["start_date=yesterday", "start_date must be in ISO 8601 format"],
    ["start_date=2026-03-02&end_date=2026-03-01", "start_date must not be after end_date"],
    ["status=active&status=failed", "status must be given only once"],
  ])("400 INVALID_PARAMETER in the calls error format for %s", async (query, message) => {
    const response = await exportRequest(query);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toMatchObject({ error_code: "INVALID_PARAMETER", message });
    expect(typeof body.error).toBe("string");
  });

  it("asks for credentials as /api/calls does, and takes a person's session cookie", async () => {
    process.env.API_KEY = "export-key-0123456789";
    resetConfigForTests();
    setRateLimiterForTests(new MemoryRateLimiter());
    const refused = await exportRequest("severity=high", { headers: { cookie: "other=1" } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error_code).toBe("UNAUTHORIZED");
    expect((await exportRequest("severity=high", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);

    const bearer = await exportRequest("severity=high", { headers: { authorization: "Bearer export-key-0123456789" } });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get("ratelimit-limit")).toBe("1000");
    await bearer.body?.cancel();
    const { cookie } = await signedIn("viewer");
    const withSession = await exportRequest("severity=high", { headers: { cookie } });
    expect(withSession.status).toBe(200);
    await withSession.body?.cancel();
  });

  it("reads no further batch once the client has gone away (2,345 calls are three batches)", async () => {
    const client = new AbortController();
    const response = await exportRequest("", { signal: client.signal });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(parseCsv(new TextDecoder().decode(first.value)).length).toBe(EXPORT_BATCH_ROWS + 1);
    client.abort();
    // At most the one batch already read ahead is still delivered; then the stream ends in an error.
    let delivered = 0;
    const drain = async () => {
      while (!(await reader.read()).done) delivered++;
    };
    await expect(drain()).rejects.toThrow();
    expect(delivered).toBeLessThanOrEqual(1);
  });
});
