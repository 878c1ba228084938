import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * NENA's registry tables (NENA-STA-021.1b tables 31-38, as JSON) from the shared copy of NENA's
 * EIDO-JSON repository (../shared/nena-eido-json, README there): the values an EIDO may use.
 */
export const NENA_EIDO_DIR = path.resolve(process.cwd(), "..", "shared", "nena-eido-json");

export const nenaRegistries = JSON.parse(readFileSync(path.join(NENA_EIDO_DIR, "registries-from-STA-021.1b.json"), "utf8")) as {
  agencyRole: string[];
  incidentTypeCommon: string[];
  incidentStatusCommon: string[];
  locationType: string[];
  personRole: string[];
};
