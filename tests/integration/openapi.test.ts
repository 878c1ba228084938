import { EMERGENCY_TYPES } from "@/lib/vocabulary";
import { apiRequest } from "@/tests/support/auth";
import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { OpenAPIV3_1 } from "openapi-types";
import { describe, expect, it } from "vitest";
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { GET as listCalls } from "@/app/api/calls/route";
import { GET as health } from "@/app/api/health/route";
import { GET as locations } from "@/app/api/locations/route";
import { GET as mapStreets } from "@/app/api/map/streets/route";
import { GET } from "@/app/api/openapi.json/route";
import { POST as replaySubscription } from "@/app/api/subscriptions/[id]/replay/route";
import { getDb } from "@/lib/db/client";
import { insertCalls, makeCalls } from "../support/calls";
import { listQueryParameters } from "@/lib/calls/schema";
import { errorBody } from "@/lib/http/respond";
import { ApiError } from "@/lib/http/api-error";
import { errorBodySchemas } from "@/lib/http/error-schemas";
import { elevenLabsCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";

// The parsed document is inspected freely here; its shape is what the validator checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

async function document(): Promise<Doc> {
  const response = await GET(apiRequest("http://localhost/api/openapi.json"), undefined);
  expect(response.status).toBe(200);
  return response.json();
}

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const doc = await document();
    const result = await validate(structuredClone(doc) as OpenAPIV3_1.Document);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("is checked by a validator that does reject a broken document", async () => {
    const broken = await document();
    delete broken.paths["/api/calls/{id}"].parameters;
    expect((await validate(broken as OpenAPIV3_1.Document)).valid).toBe(false);
  });

  it("has component schemas that are valid JSON Schema 2020-12 and match real answers", async () => {
    const calls = makeCalls(6, 21);
    await insertCalls(await getDb(), calls);
    const { components } = await document();
    // The OpenAPI validator does not look inside schemas: compile each one strictly.
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    ajv.addKeyword("example");
    // People's emails and keys' expiry (lib/access/schema.ts); ajv knows no formats of its own.
    ajv.addFormat("email", /^[^\s@]+@[^\s@]+$/);
    ajv.addFormat("date-time", (value: string) => !Number.isNaN(Date.parse(value)));
    const check = (name: string, body: unknown) => {
      const validateBody = ajv.compile(components.schemas[name]);
      expect(validateBody(body) ? [] : validateBody.errors, name).toEqual([]);
    };
    for (const name of Object.keys(components.schemas)) ajv.compile(components.schemas[name]);

    check("CallList", await (await listCalls(apiRequest("http://localhost/api/calls"), undefined)).json());
    for (const call of calls.slice(0, 2)) {
      const id = call.conversationId;
      check("CallDetail", await (await getCall(apiRequest(`http://localhost/api/calls/${id}`), { params: Promise.resolve({ id }) })).json());
    }
    check("CallsError", await (await listCalls(apiRequest("http://localhost/api/calls?limit=0"), undefined)).json());
    check("HealthReport", await (await health(apiRequest("http://localhost/api/health"), undefined)).json());
    // The three event types the platform sends, in its own form.
    check("WebhookEvent", elevenLabsCallEvent("conv_openapi"));
    check("WebhookEvent", { type: "post_call_audio", event_timestamp: 1, data: { conversation_id: "c", agent_id: "a", full_audio: "SUQz" } });
    check("WebhookEvent", {
      type: "call_initiation_failure",
      event_timestamp: 1,
      data: { conversation_id: "c", agent_id: "a", failure_reason: "busy", metadata: { type: "sip", body: {} } },
    });
    // And a wrong body is caught, so the checks above can fail.
    const validateList = ajv.compile(components.schemas.CallList);
    expect(validateList({ calls: [{ conversation_id: 1 }], pagination: {}, filters: {} })).toBe(false);
  });

  it("answers 304 to If-None-Match with its ETag, from one build", async () => {
    const first = await GET(apiRequest("http://localhost/api/openapi.json"), undefined);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await GET(apiRequest("http://localhost/api/openapi.json", { headers: { "if-none-match": `W/${etag}` } }), undefined);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const stale = await GET(apiRequest("http://localhost/api/openapi.json", { headers: { "if-none-match": '"other"' } }), undefined);
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(await first.text());
  });
  it("documents the listing's parameters from the schemas that validate them", async () => {
    const { paths } = await document();
    const parameters = paths["/api/calls"].get.parameters.filter((parameter: { in: string }) => parameter.in === "query");
    expect(parameters.map((parameter: { name: string }) => parameter.name)).toEqual(Object.keys(listQueryParameters));
    const byName = Object.fromEntries(parameters.map((parameter: { name: string; schema: unknown }) => [parameter.name, parameter.schema]));
    expect(byName.limit).toEqual({ type: "integer", minimum: 1, maximum: 1000, default: 50 });
    expect(byName.severity).toEqual({ type: "string", enum: ["critical", "high", "moderate"] });
    expect(byName.simulation).toEqual({ type: "boolean" });
  });

  it("marks a query parameter required exactly when the server refuses a request without it (replay's after, the street map's box and zoom)", async () => {
    const { paths } = await document();
    const required = Object.entries(paths as Record<string, Record<string, { parameters?: { name: string; in: string; required: boolean }[] }>>)
      .flatMap(([path, operations]) =>
        Object.entries(operations).flatMap(([method, operation]) =>
          (operation.parameters ?? []).filter((parameter) => parameter.in === "query" && parameter.required).map((parameter) => `${method} ${path} ${parameter.name}`),
        ),
      );
    expect(required).toEqual([
      "get /api/locations q", "get /api/locations/duplicates latitude", "get /api/locations/duplicates longitude", "get /api/locations/duplicates emergency_type",
      "get /api/map/streets bbox", "get /api/map/streets zoom", "post /api/subscriptions/{id}/replay after",
    ]);
    const withoutQ = await locations(apiRequest("http://localhost/api/locations"), undefined);
    expect(withoutQ.status).toBe(400);
    expect(await withoutQ.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message: expect.stringMatching(/^q is required/) });
    for (const [query, message] of [["zoom=16", /^bbox is required/], ["bbox=-89.65,39.78,-89.64,39.79", /^zoom is required/]] as const) {
      const streets = await mapStreets(apiRequest(`http://localhost/api/map/streets?${query}`), undefined);
      expect(streets.status).toBe(400);
      expect(await streets.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message: expect.stringMatching(message) });
    }
    const answer = await replaySubscription(
      apiRequest("http://localhost/api/subscriptions/00000000-0000-7000-8000-000000000000/replay", { method: "POST" }),
      { params: Promise.resolve({ id: "00000000-0000-7000-8000-000000000000" }) },
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message: "after must be a change number (an integer from 0)" });
  });

  it("describes the status workflow's and the corrections' body and answers", async () => {
    const doc = await document();
    for (const name of ["CallUpdate", "IncidentUpdate"]) {
      expect(doc.components.schemas[name].properties.status.enum).toEqual(["active", "dispatched", "enroute", "resolved", "failed"]);
      expect(doc.components.schemas[name].properties.severity.enum).toEqual(["critical", "high", "moderate"]);
      expect(doc.components.schemas[name].properties.emergency_type.enum).toEqual([...EMERGENCY_TYPES]);
    }
    expect(doc.components.schemas.CallUpdate.properties.location).toMatchObject({ type: "string", minLength: 1, maxLength: 500 });
    expect(doc.components.schemas.IncidentUpdate.properties).not.toHaveProperty("location");
    expect(Object.keys(doc.paths["/api/calls/{id}"].patch.responses)).toEqual(expect.arrayContaining(["200", "400", "404", "409", "500"]));
    expect(doc.components.schemas.CallDetail.required).toEqual(expect.arrayContaining(["history", "corrections", "conversation_id"]));
  });

  it("describes the error bodies respond.ts actually writes", () => {
    const error = new ApiError("INVALID_PARAMETER", "limit must be an integer from 1 to 1000", {}, { label: "Invalid limit" });
    for (const format of ["calls", "simulation", "webhook"] as const) {
      expect(errorBodySchemas[format].safeParse(errorBody(error, format)).success).toBe(true);
    }
  });
});
