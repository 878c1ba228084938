import { describe, expect, it } from "vitest";
import { GET as eidoRoute } from "@/app/api/incidents/[id]/eido/route";
import { POST as webhookRoute } from "@/app/api/voiceagent-webhook/route";
import { getDb } from "@/lib/db/client";
import type { Eido } from "@/lib/eido/build";
import { groupNow } from "@/lib/incidents/grouper";
import { SCENARIO_IDS } from "@/lib/scenarios";
import { specCallEvent } from "@/lib/webhook/sample-events";
import { apiRequest } from "../support/auth";
import { validateEido } from "../support/eido-schema";
import { postSimulate } from "../support/simulate-request";
import { webhookRequest } from "../support/webhook-request";

async function eidoOf(id: string): Promise<{ status: number; body: Eido }> {
  const response = await eidoRoute(apiRequest(`http://localhost/api/incidents/${id}/eido`), { params: Promise.resolve({ id }) });
  return { status: response.status, body: (await response.json()) as Eido };
}

describe("GET /api/incidents/{id}/eido", () => {
  it("validates against the EIDO schema for 100 incidents of the four scenarios", async () => {
    for (const scenario of SCENARIO_IDS) {
      const { status } = await postSimulate({ scenario, num_calls: 60, table_name: `eido-${scenario}` });
      expect(status).toBe(200);
    }
    await groupNow();
    const db = await getDb();
    const incidents = await db.$queryRaw<{ id: string; scenario: string }[]>`
      SELECT id, scenario FROM (
        SELECT DISTINCT ON (c.incident_id) c.incident_id AS id, c.scenario, c.occurred_at
        FROM calls c WHERE c.table_name LIKE 'eido-%' ORDER BY c.incident_id, c.occurred_at
      ) first_calls ORDER BY scenario, id`;
    const perScenario = SCENARIO_IDS.flatMap((scenario) => incidents.filter((row) => row.scenario === scenario).slice(0, 25));
    expect(perScenario).toHaveLength(100);
    let calls = 0;
    for (const { id } of perScenario) {
      const { status, body } = await eidoOf(id);
      expect(status).toBe(200);
      const valid = validateEido(body);
      expect(valid ? [] : validateEido.errors, id).toEqual([]);
      calls += body.callComponent.length;
      // Every reference names a component of the document.
      const ids = new Set(Object.values(body).flatMap((value) => (Array.isArray(value) ? value.map((component: { $id: string }) => component.$id) : [])));
      ids.add(body.incidentComponent.$id);
      const refs = JSON.stringify(body).match(/"\$ref":"[^"]+"/g)!.map((ref) => ref.slice(8, -1));
      for (const ref of refs) expect(ids.has(ref), ref).toBe(true);
    }
    expect(calls).toBeGreaterThanOrEqual(100);
    // A document the standard does not allow is refused: the schema can fail.
    const { body } = await eidoOf(perScenario[0].id);
    expect(validateEido({ ...body, eidoVersion: "2.0" })).toBe(false);
    expect(validateEido({ ...body, incidentComponent: { ...body.incidentComponent, incidentType: "Fire" } })).toBe(false);
  });

  it("carries each of an incident's three calls field by field", async () => {
    const location = "400 Lakeshore Dr, Nashville";
    const conversations = ["conv_eido_a", "conv_eido_b", "conv_eido_c"];
    const phones = ["+16155550101", "+16155550102", "+16155550103"];
    for (const [index, id] of conversations.entries()) {
      const event = specCallEvent(id, { location, eventTimestamp: 1_767_225_600 + index * 60 });
      Object.assign(event.data.metadata, { phone_call: { external_number: phones[index] } });
      expect((await webhookRoute(webhookRequest(event), undefined)).status).toBe(200);
    }
    const db = await getDb();
    const rows = await db.call.findMany({ where: { conversationId: { in: conversations } }, orderBy: { occurredAt: "asc" } });
    expect(new Set(rows.map((row) => row.incidentId)).size).toBe(1);
    const incidentId = rows[0].incidentId;
    const { status, body } = await eidoOf(incidentId);
    expect(status).toBe(200);
    expect(validateEido(body)).toBe(true);

    expect(body.eidoVersion).toBe("1.0");
    expect(body.incidentComponent).toMatchObject({
      $id: `urn:emergency:uid:incidentid:${incidentId}:mayday`,
      internalIncidentId: incidentId,
      incidentTypeCommonRegistryText: "Fire",
      incidentTypeInternalCode: "structure_fire",
      incidentStatusInternalText: ["active"],
      incidentPriorityInternalText: "critical",
    });
    const byId = new Map([...body.locationComponent, ...body.notesComponent, ...body.callbackComponent].map((component) => [component.$id, component]));
    const incidentLocation = byId.get((body.incidentComponent.locationReference as { $ref: string }[])[0].$ref)!;
    expect(incidentLocation.locationDescriptionText).toBe(location);
    expect(incidentLocation.locationByValue).toContain(`<ca:LOC>${location}</ca:LOC>`);
    expect(incidentLocation.locationByValue).toContain(`<gs:radius uom="urn:ogc:def:uom:EPSG::9001">15000</gs:radius>`);

    expect(body.callComponent).toHaveLength(3);
    for (const [index, row] of rows.entries()) {
      const call = body.callComponent[index];
      expect(call.$id).toBe(`urn:emergency:uid:callid:${row.conversationId}:mayday`);
      expect(call.callStartTimestamp).toBe(row.occurredAt.toISOString());
      expect(call).toMatchObject({ direction: "incoming", standardPrimaryCallType: "emergency", localCallType: "voice-agent", priorityIdentifier: "highest" });
      const callback = byId.get((call.callBackReference as { $ref: string }).$ref)!;
      expect(callback.callBackInformationUri).toEqual([`tel:${phones[index]}`]);
      const callLocation = byId.get((call.locationReference as { $ref: string }[])[0].$ref)!;
      expect(callLocation.locationDescriptionText).toBe(row.location);
      // The point with its uncertainty, a PIDF-LO circle (RFC 5491), and how it was located.
      expect(row).toMatchObject({ locationPrecision: "locality", locationSource: "gazetteer", locationUncertaintyM: 15_000 });
      expect(callLocation.locationByValue).toContain(
        `<gs:Circle srsName="urn:ogc:def:crs:EPSG::4326"><gml:pos>${row.latitude} ${row.longitude}</gml:pos>` +
          `<gs:radius uom="urn:ogc:def:uom:EPSG::9001">15000</gs:radius></gs:Circle>`,
      );
      expect(callLocation.locationByValue).toContain("<gp:method>gazetteer: locality</gp:method>");
      const notes = (call.notesReference as { $ref: string }[]).map((ref) => byId.get(ref.$ref)!.notesActionComments);
      expect(notes[0]).toBe(row.summary);
      expect(notes[1]).toBe("Call received as active (webhook)");
    }
  });

  it("answers 404 for an incident that does not exist", async () => {
    const { status } = await eidoOf("no-such-incident");
    expect(status).toBe(404);
  });
});
