import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getCallRoute } from "@/app/api/calls/[id]/route";
import { GET as eidoRoute } from "@/app/api/incidents/[id]/eido/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { type CallRecord } from "@/lib/calls/schema";
import { resetConfigForTests } from "@/lib/config";
import type { Eido } from "@/lib/eido/build";
import { matchedAddressLabel } from "@/lib/geocoding/centre/civic-address";
import { importGisLayer } from "@/lib/geocoding/centre/import";
import type { CivicAddress } from "@/lib/geocoding/types";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { apiRequest } from "../support/auth";
import { danglingReferences, validateEido, validateNenaEido } from "../support/eido-schema";
import { webhookRequest } from "../support/webhook-request";

/**
 * The EIDO's civic address from the centre's GIS (issue 56, acceptance 2): with the synthetic
 * county loaded (tests/fixtures/gis), a call matched to an address point carries that point's NENA
 * fields as RFC 5139 elements (RFC 6848's STP and HNP for a road type before the name and a number
 * prefix), the same record the dashboard's standard address is formatted from; a call the GIS did
 * not match keeps what the words say; a re-import of the GIS leaves a stored call's address as
 * matched then. Every document valid in both schemas, with no dangling reference.
 */
const SECRET = "eido-civic-secret";
const FIXTURES = path.join(__dirname, "..", "fixtures", "gis");
const POINTS_CSV = readFileSync(path.join(FIXTURES, "address-points.csv"), "utf8");
const originalSecret = process.env.VOICEAGENT_WEBHOOK_SECRET;

const importPoints = (text: string) =>
  importGisLayer({ format: "csv", chunks: Readable.from([Buffer.from(text)]), sourceName: "address-points.csv", layer: "address_points" });

beforeAll(async () => {
  process.env.VOICEAGENT_WEBHOOK_SECRET = SECRET;
  resetConfigForTests();
  await importPoints(POINTS_CSV);
  await importGisLayer({ format: "geojson", chunks: Readable.from([readFileSync(path.join(FIXTURES, "centrelines.geojson"))]), sourceName: "centrelines.geojson" });
}, 120_000);
afterAll(() => {
  if (originalSecret === undefined) delete process.env.VOICEAGENT_WEBHOOK_SECRET;
  else process.env.VOICEAGENT_WEBHOOK_SECRET = originalSecret;
  resetConfigForTests();
});

type PointRecord = Record<string, string>;
const POINTS = parse(POINTS_CSV, { columns: true }) as PointRecord[];

/** The one address point of the county with these fields. */
function pointRecord(fields: PointRecord): PointRecord {
  const found = POINTS.filter((row) => Object.entries(fields).every(([name, value]) => row[name] === value));
  expect(found).toHaveLength(1);
  return found[0];
}

/** What the EIDO must carry for a record: every NENA field imported, by its RFC 5139 (or RFC 6848) name. */
function expectedCivic(record: PointRecord): CivicAddress {
  const elements: Record<string, string> = {
    country: "US", A1: record.State, A3: record.Post_Comm, PRD: record.St_PreDir, STP: record.St_PreTyp, RD: record.St_Name,
    STS: record.St_PosTyp, POD: record.St_PosDir, HNP: record.AddNum_Pre, HNO: record.Add_Number, HNS: record.AddNum_Suf,
    PC: record.Post_Code, UNIT: record.Unit,
  };
  return Object.fromEntries(Object.entries(elements).filter(([, value]) => value)) as CivicAddress;
}

const xmlUnescape = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

/** A PIDF-LO's civic address elements by name (LOC apart), and its method. */
function civicOf(pidf: string): { civic: Record<string, string>; loc: string; method: string } {
  const tuple = /<tuple id="civic">(.*?)<\/tuple>/.exec(pidf)![1];
  const civic: Record<string, string> = {};
  for (const [, , name, value] of tuple.matchAll(/<(ca|cae):(\w+)>([^<]*)<\/\1:\2>/g)) civic[name] = xmlUnescape(value);
  const { LOC: loc, ...rest } = civic;
  return { civic: rest, loc, method: /<gp:method>([^<]*)<\/gp:method>/.exec(tuple)![1] };
}

let counter = 0;
const runId = Date.now().toString(36);

async function report(location: string): Promise<CallRecord> {
  const id = `conv_civic_${runId}_${++counter}`;
  const event = specCallEvent(id, { location, eventTimestamp: 1_767_225_600 + counter * 86_400 });
  // Each its own caller: no callback number joins two of them.
  (event.data as { metadata: Record<string, unknown> }).metadata.phone_call = { external_number: `+1217555${String(1000 + counter)}` };
  expect((await webhook(webhookRequest(event, { secret: SECRET }), undefined)).status).toBe(200);
  const response = await getCallRoute(apiRequest(`http://localhost/api/calls/${id}`), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  return (await response.json()) as CallRecord;
}

async function eidoOf(id: string): Promise<Eido> {
  const response = await eidoRoute(apiRequest(`http://localhost/api/incidents/${id}/eido`), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Eido;
  expect(validateEido(body) ? [] : validateEido.errors).toEqual([]);
  expect(validateNenaEido(body) ? [] : validateNenaEido.errors).toEqual([]);
  expect(danglingReferences(body)).toEqual([]);
  return body;
}

/** The call's location component, and the incident's. */
async function locations(call: CallRecord) {
  const eido = await eidoOf(call.incident_id);
  const ofCall = eido.locationComponent.find((component) => component.$id.endsWith(encodeURIComponent(call.conversation_id)))!;
  return { call: civicOf(ofCall.locationByValue as string), incident: civicOf(eido.locationComponent[0].locationByValue as string) };
}

describe("the EIDO's civic address", () => {
  it("carries the matched address point's NENA fields as RFC 5139 elements, the record the dashboard's address is formatted from", async () => {
    const cases: { said: string; record: PointRecord }[] = [
      { said: "424 east elm lane apartment 2, springfield", record: { Add_Number: "424", St_PreDir: "E", St_Name: "Elm", Unit: "2" } },
      { said: "725 W Elm Ln, Springfield, IL 62701", record: { Add_Number: "725", St_PreDir: "W", St_Name: "Elm", Unit: "1" } },
      { said: "N100W725 West County Road 60E, Ogdenville", record: { AddNum_Pre: "N100W", Add_Number: "725", St_Name: "60E" } },
      { said: "424 1/2 W Elm Ln, Springfield", record: { Add_Number: "424", AddNum_Suf: "1/2", St_PreDir: "W", St_Name: "Elm" } },
    ];
    for (const { said, record: fields } of cases) {
      const record = pointRecord(fields);
      const call = await report(said);
      expect(call, said).toMatchObject({ location: said, location_source: "centre_gis", location_precision: "address_point" });
      const { call: civic, incident } = await locations(call);
      const expected = expectedCivic(record);
      // The acceptance's elements, each from the GIS record.
      for (const name of ["HNO", "PRD", "RD", "STS", "A3", "A1", "PC", "country"] as const) {
        if (expected[name] !== undefined) expect(civic.civic[name], `${said}: ${name}`).toBe(expected[name]);
      }
      expect(civic.civic, said).toEqual(expected);
      expect(civic.loc).toBe(said);
      expect(civic.method).toBe("Derived");
      // The incident's address is its first call's.
      expect(incident.civic).toEqual(expected);
      // One address: the dashboard's standard form is the same record's.
      expect(call.location_matched).toBe(matchedAddressLabel(expected));
    }
  });

  it("keeps the parser's reading of the words for a place the GIS does not hold", async () => {
    const call = await report("1200 Sunset Blvd, Los Angeles, CA 90026");
    expect(call.location_source).not.toBe("centre_gis");
    expect(call.location_matched).toBeNull();
    const { call: civic } = await locations(call);
    expect(civic.civic).toEqual({ country: "US", A1: "CA", A3: "Los Angeles", HNO: "1200", RD: "Sunset", STS: "Boulevard", PC: "90026" });
    expect(civic.method).toBe("Manual");
  });

  it("keeps what was matched when the GIS is imported again", async () => {
    const record = pointRecord({ Add_Number: "173", St_PreDir: "E", St_Name: "Elm", St_PosTyp: "Ln" });
    const call = await report("173 East Elm Lane, Springfield");
    expect((await locations(call)).call.civic).toEqual(expectedCivic(record));
    // The centre re-imports its address points with that point's ZIP code changed.
    const line = POINTS_CSV.split("\n").find((row) => row.startsWith(",173,,E,,Elm,Ln,"))!;
    try {
      await importPoints(POINTS_CSV.replace(line, line.replace(",62701,", ",62799,")));
      const again = await report("173 East Elm Lane, Springfield");
      expect((await locations(again)).call.civic.PC).toBe("62799");
      // The stored call says what it said.
      expect((await locations(call)).call.civic).toEqual(expectedCivic(record));
    } finally {
      await importPoints(POINTS_CSV);
    }
  });
});
