import { afterEach, describe, expect, it, vi } from "vitest";
import { request } from "@/components/shared/api";
import { buildOpenApiDocument } from "@/lib/http/openapi";

/** A stand-in for the API: answers `body` with `etag`, or 304 when If-None-Match names it. */
function server(state: { body: unknown; etag: string }) {
  const seen: (string | null)[] = [];
  const fetch = vi.fn(async (_path: string, init?: RequestInit) => {
    const ifNoneMatch = new Headers(init?.headers).get("if-none-match");
    seen.push(ifNoneMatch);
    if (ifNoneMatch === state.etag) return new Response(null, { status: 304, headers: { etag: state.etag } });
    return new Response(JSON.stringify(state.body), { status: 200, headers: { etag: state.etag, "content-type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetch);
  return seen;
}

afterEach(() => vi.unstubAllGlobals());

describe("the dashboard's conditional reads", () => {
  it("names the last answer's ETag and keeps that answer when the server says it is unchanged", async () => {
    const state = { body: { open: 3 } as unknown, etag: 'W/"a"' };
    const seen = server(state);
    const first = await request<{ open: number }>("/api/live/board?x=1");
    const again = await request<{ open: number }>("/api/live/board?x=1");
    expect(again).toBe(first);
    expect(again).toEqual({ open: 3 });
    state.body = { open: 4 };
    state.etag = 'W/"b"';
    expect(await request("/api/live/board?x=1")).toEqual({ open: 4 });
    expect(seen).toEqual([null, 'W/"a"', 'W/"a"']);
  });

  it("sends no validator with a write, nor on another address's first read", async () => {
    const seen = server({ body: { ok: true }, etag: 'W/"c"' });
    await request("/api/live/alerts?y=1");
    await request("/api/live/alerts?y=1", { method: "POST", body: "{}" });
    await request("/api/live/alerts?y=2");
    expect(seen).toEqual([null, null, null]);
  });
});

describe("the OpenAPI document", () => {
  it("documents If-None-Match and 304 on every JSON read, and on nothing else", () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>>;
    expect(paths["/api/live/board"].get.responses["304"]).toBeDefined();
    expect(paths["/api/live/board"].get.parameters?.map((parameter) => parameter.name)).toContain("if-none-match");
    expect(paths["/api/simulate"].post.responses["304"]).toBeUndefined();
    expect(paths["/api/calls/export.csv"].get.responses["304"]).toBeUndefined();
    expect(paths["/api/calls/stream"].get.responses["304"]).toBeUndefined();
  });
});
