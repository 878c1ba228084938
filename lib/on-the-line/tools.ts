import { normaliseEmergencyType, normaliseSeverity } from "../calls/handed-over";
import { normalisePhone, TEXT_LIMITS } from "../calls/sanitise";
import { EMERGENCY_TYPES, emergencyTypeOf, type Severity } from "../vocabulary";
import { type Fields, textAt } from "../voice-platforms/fields";

/**
 * The two tools Mayday publishes for the voice agent (docs/webhook.md, "Live calls"; their names in
 * lib/voice-platforms/tools.ts): their parameters as JSON Schema (what an integrator pastes into the agent's tool definition), and
 * the lenient reading of what the agent sends (a wrong type is no value, as for post-call events).
 */


/** Free-text details: at most this many characters are kept. */
export const DETAILS_LIMIT = 2_000;

const REPORT_DESCRIPTION =
  "Report the emergency to the dispatch centre as soon as you know anything about it, and again whenever you learn more. " +
  "Send only what you know; every field is optional, and a field you send replaces what you sent before.";
const STATUS_DESCRIPTION =
  "Ask the dispatch centre what you may tell the caller: whether help has been dispatched, how many other people reported " +
  "the same emergency, and an instruction a dispatcher wrote for you. Follow the instruction when there is one.";

/** The parameters of `report_emergency` (JSON Schema, draft 2020-12 subset every platform reads). */
export const reportEmergencyParameters = {
  type: "object",
  properties: {
    emergency_type: {
      type: "string",
      description: `What happened, one of: ${EMERGENCY_TYPES.join(", ")}; or unknown`,
    },
    severity: { type: "string", enum: ["critical", "high", "moderate"], description: "critical: life in danger now" },
    location: { type: "string", description: "Where the emergency is, as the caller said it (address, cross streets, landmark)" },
    callback_number: { type: "string", description: "A number the caller can be called back on, if they gave one" },
    details: { type: "string", description: "Anything else a dispatcher should know: people hurt, hazards, access" },
  },
  required: [],
} as const;

export const incidentStatusParameters = { type: "object", properties: {}, required: [] } as const;

/** Each tool as an OpenAI-style function (Vapi's `function`, Retell's custom function): name, description, parameters. */
export const liveToolDefinitions = [
  { name: "report_emergency", description: REPORT_DESCRIPTION, parameters: reportEmergencyParameters },
  { name: "incident_status", description: STATUS_DESCRIPTION, parameters: incidentStatusParameters },
] as const;

/** What one `report_emergency` said: each field null when not said. */
export interface ReportedFields {
  emergencyType: string | null;
  severity: Severity | null;
  location: string | null;
  callbackNumber: string | null;
  details: string | null;
}

const said = (value: unknown, limit: number): string | null => textAt(value, limit) || null;


export function readReport(args: Fields): ReportedFields {
  const type = said(args.emergency_type, TEXT_LIMITS.emergencyType);
  const severity = said(args.severity, 64);
  return {
    // The agent's word as Mayday's type (the tool's earlier words too: fire, medical, police...).
    emergencyType: type && emergencyTypeOf(normaliseEmergencyType(type)),
    severity: severity === null ? null : normaliseSeverity(severity),
    location: said(args.location, TEXT_LIMITS.location),
    callbackNumber: normalisePhone(args.callback_number),
    details: said(args.details, DETAILS_LIMIT),
  };
}
