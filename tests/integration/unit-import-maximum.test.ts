import { describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/units/import/route";
import { getDb } from "@/lib/db/client";
import { UNIT_IMPORT_MAX_BYTES, UNIT_IMPORT_MAX_ROWS, unitImportResultSchema } from "@/lib/units/schema";
import { apiRequest } from "../support/auth";

/**
 * docs/units.md, "Roster": a file of the documented maximum (UNIT_IMPORT_MAX_ROWS units, within
 * UNIT_IMPORT_MAX_BYTES) is imported in one request, every unit with its first history row.
 */
describe("a unit import of the documented maximum", () => {
  it(`imports ${UNIT_IMPORT_MAX_ROWS} units in one request, each with its first state change`, async () => {
    const lines = Array.from({ length: UNIT_IMPORT_MAX_ROWS }, (_, index) =>
      index % 2 === 0
        ? `MAX-${index},engine,Engine ${index},Station ${index % 40},${(25 + (index % 90) / 100).toFixed(2)},-80.19,true`
        : `MAX-${index},ambulance,,,,,no`,
    );
    const csv = ["call_sign,type,name,station,station_latitude,station_longitude,in_service", ...lines].join("\n");
    const body = JSON.stringify({ csv });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(UNIT_IMPORT_MAX_BYTES);
    const db = await getDb();
    const before = await db.unit.count();

    const response = await importRoute(
      apiRequest("http://localhost/api/units/import", { method: "POST", headers: { "content-type": "application/json" }, body }),
      undefined,
    );
    expect(response.status, await response.clone().text().then((text) => text.slice(0, 300))).toBe(201);
    const result = unitImportResultSchema.parse(await response.json());
    expect(result.created).toBe(UNIT_IMPORT_MAX_ROWS);
    expect(result.units).toHaveLength(UNIT_IMPORT_MAX_ROWS);
    const byCallSign = new Map(result.units.map((unit) => [unit.call_sign, unit]));
    expect(byCallSign.get("MAX-0")).toMatchObject({ name: "Engine 0", type: "engine", state: "available", station: { name: "Station 0", latitude: 25, longitude: -80.19 } });
    expect(byCallSign.get("MAX-4999")).toMatchObject({ name: "MAX-4999", type: "ambulance", state: "out_of_service", station: null });

    expect(await db.unit.count()).toBe(before + UNIT_IMPORT_MAX_ROWS);
    const ids = result.units.map((unit) => unit.id);
    const firstRows = await db.$queryRaw<{ units: bigint; out_of_service: bigint }[]>`
      SELECT count(DISTINCT unit_id) AS units, count(*) FILTER (WHERE state = 'out_of_service') AS out_of_service
      FROM unit_state_changes WHERE unit_id = ANY(${ids}::text[]) AND from_state IS NULL`;
    expect(firstRows[0]).toEqual({ units: BigInt(UNIT_IMPORT_MAX_ROWS), out_of_service: BigInt(UNIT_IMPORT_MAX_ROWS / 2) });
    const audit = await db.$queryRaw<{ created: number }[]>`
      SELECT (after->>'created')::int AS created FROM audit_events WHERE action = 'unit.imported' ORDER BY at DESC LIMIT 1`;
    expect(audit[0]?.created).toBe(UNIT_IMPORT_MAX_ROWS);
  });
});
