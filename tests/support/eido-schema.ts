import type { Eido } from "@/lib/eido/build";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020";
import Ajv from "ajv";
import yaml from "js-yaml";
import schema from "@/lib/eido/eido.schema.json";
import { NENA_EIDO_DIR } from "./nena-registries";

const isDateTime = (value: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value));

/** lib/eido/eido.schema.json compiled with ajv (strict), its two formats checked by hand. */
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addFormat("date-time", isDateTime);
ajv.addFormat("uri", (value: string) => URL.canParse(value));

export const validateEido = ajv.compile(schema);

/**
 * NENA's published EIDO schema itself (Schema/openapi.yaml and its NIEMComponents, from the shared
 * copy of NENA911/EIDO-JSON at the commit its COMMIT file names), each YAML file a schema of its
 * own so their relative references resolve. OpenAPI 3.0's schemas are JSON Schema draft 4/7 with
 * extra keywords (ajv not strict). Two defects of NENA's files are mended, as its README says: a
 * `minItems: "1,"` and a `NIEMComponents//j.yaml` reference.
 */
const NENA_BASE = "https://nena.invalid/Schema/";

function mended(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mended);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if ((key === "minItems" || key === "maxItems") && typeof value === "string") return [key, Number.parseInt(value, 10)];
      if (key === "$ref" && typeof value === "string") return [key, value.trim().replace(/\/\/+/g, "/")];
      return [key, mended(value)];
    }),
  );
}

const nenaAjv = new Ajv({ allErrors: true, strict: false });
nenaAjv.addFormat("date-time", isDateTime);
nenaAjv.addFormat("uri", (value: string) => URL.canParse(value));
nenaAjv.addFormat("uri-reference", (value: string) => URL.canParse(value, NENA_BASE));
// OpenAPI's int32: integers within 32 bits.
nenaAjv.addFormat("int32", { type: "number", validate: (value: number) => Number.isInteger(value) && Math.abs(value) <= 2 ** 31 });
const schemaDir = path.join(NENA_EIDO_DIR, "Schema");
for (const file of ["openapi.yaml", ...readdirSync(path.join(schemaDir, "NIEMComponents")).map((name) => `NIEMComponents/${name}`)]) {
  if (!file.endsWith(".yaml")) continue;
  const document = mended(yaml.load(readFileSync(path.join(schemaDir, file), "utf8"))) as Record<string, unknown>;
  nenaAjv.addSchema({ ...document, $id: NENA_BASE + file });
}

export const validateNenaEido = nenaAjv.compile({ $ref: `${NENA_BASE}openapi.yaml#/components/schemas/EmergencyIncidentDataObjectType` });

/** The references of a document that name no component of it (NENA: a reference is the $id of a component). */
export function danglingReferences(body: Eido): string[] {
  const ids = new Set(Object.values(body).flatMap((value) => (Array.isArray(value) ? value.map((component: { $id: string }) => component.$id) : [])));
  ids.add(body.incidentComponent.$id);
  const refs = JSON.stringify(body).match(/"\$ref":"[^"]+"/g)!.map((ref) => ref.slice(8, -1));
  return refs.filter((ref) => !ids.has(ref));
}
