import { z } from "zod";
import { invalidParameter } from "../domain-error";
import { EMERGENCY_TYPES, SEVERITIES } from "../vocabulary";
import { LOCATION_MAX_LENGTH } from "./schema";

/**
 * POST /api/calls: a call a person takes (docs/calls.md, "A call a person takes"), the body's
 * schema (the operation is lib/call-taking/take-call.ts). Pure zod: the calls' endpoint declares it.
 */

/** The longest caller's name, narrative and candidate id a taken call may give. */
export const CALLER_NAME_MAX_LENGTH = 200;
export const NARRATIVE_MAX_LENGTH = 20_000;
export const CANDIDATE_ID_MAX_LENGTH = 300;
const REFERENCE_MAX_LENGTH = 100;
/** A UUID (any version), in its usual text form. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const takenCallSchema = z
  .object({
    conversation_id: z.string().regex(UUID_PATTERN).optional().meta({
      description:
        "The call's id, a UUID the client makes when the form opens: a save retried with the same id answers the call stored (200), never a second call. Without it the server makes one, and a retried save may store the call twice",
    }),
    callback_number: z.string().trim().max(64).nullable().optional().meta({
      description: "A number the caller can be called back on, normalised as the webhook's (E.164 where possible); absent or null for none (a radio report)",
    }),
    caller_name: z.string().trim().max(CALLER_NAME_MAX_LENGTH).nullable().optional().meta({ description: "The caller's name as given" }),
    location: z.string().trim().min(1).max(LOCATION_MAX_LENGTH).optional().meta({
      description:
        "Where it is, as typed (or the chosen candidate's label). Without `candidate_id` it is geocoded as every call's location is (the centre's GIS, the hosted geocoder, the gazetteer). Required, except with `unit_id`: absent, the call is where the unit last reported its position",
    }),
    candidate_id: z.string().min(1).max(CANDIDATE_ID_MAX_LENGTH).optional().meta({
      description:
        "The candidate chosen among GET /api/locations?q=<location>'s: its point, precision and matched address are stored. 409 CONFLICT when it is no longer among them (the centre's GIS was imported again): choose again",
    }),
    emergency_type: z.enum(EMERGENCY_TYPES),
    severity: z.enum(SEVERITIES),
    narrative: z.string().trim().max(NARRATIVE_MAX_LENGTH).default("").meta({ description: "What the caller said, in the call-taker's words (the call's summary)" }),
    incident_id: z.string().min(1).max(REFERENCE_MAX_LENGTH).optional().meta({
      description:
        "An open incident the person chose to join (a possible duplicate): the call goes into it, taking its kind (real or training). Without it the grouping rule places the call, as every call",
    }),
    exercise_id: z.string().min(1).max(REFERENCE_MAX_LENGTH).optional().meta({
      description: "A training call of this exercise (not ended): stored as its calls are (simulated, `exercise-calls`). A trainer's call needs it, or a training incident_id",
    }),
    unit_id: z.string().min(1).max(REFERENCE_MAX_LENGTH).optional().meta({
      description:
        "A unit that reported it itself (it came upon it, or radioed it in): the call opens an incident of its own (or joins `incident_id`) with that unit assigned and on scene, its turnout zero and its travel absent in the units' report. 409 UNIT_UNAVAILABLE when the unit is busy or out of service, TRAINING_MIX when it is not of the call's kind; an exercise's unit makes the call its exercise's",
    }),
    form_opened_at: z.number().finite().positive().optional().meta({
      description:
        "When the call-taker opened the form (Unix seconds, fractions allowed; at most 24 h ago and not after now): the call's `timestamp`, from which the intervals report counts call processing (NFPA 1225) to the first dispatch. Absent: the save's time",
    }),
  })
  .meta({ description: "A call a person took. Other fields are ignored." });

export type TakenCallBody = z.infer<typeof takenCallSchema>;

const fieldMessages: Record<keyof TakenCallBody, string> = {
  conversation_id: "conversation_id must be a UUID",
  callback_number: "callback_number must be text of at most 64 characters",
  caller_name: `caller_name must be text of at most ${CALLER_NAME_MAX_LENGTH} characters`,
  location: `location must be text of 1 to ${LOCATION_MAX_LENGTH} characters (it may be left out only with unit_id)`,
  candidate_id: `candidate_id must be text of 1 to ${CANDIDATE_ID_MAX_LENGTH} characters`,
  emergency_type: `emergency_type must be one of ${EMERGENCY_TYPES.join(", ")}`,
  severity: `severity must be one of ${SEVERITIES.join(", ")}`,
  narrative: `narrative must be text of at most ${NARRATIVE_MAX_LENGTH} characters`,
  incident_id: `incident_id must be text of 1 to ${REFERENCE_MAX_LENGTH} characters`,
  exercise_id: `exercise_id must be text of 1 to ${REFERENCE_MAX_LENGTH} characters`,
  unit_id: `unit_id must be text of 1 to ${REFERENCE_MAX_LENGTH} characters`,
  form_opened_at: "form_opened_at must be a time in Unix seconds",
};

/** The body, each field valid; the first bad one named in a 400 (`Invalid <field>`). */
export function parseTakenCall(body: unknown): TakenCallBody {
  const result = takenCallSchema.safeParse(body);
  if (!result.success) {
    const field = String(result.error.issues[0].path[0] ?? "body") as keyof TakenCallBody;
    throw invalidParameter(`Invalid ${field}`, fieldMessages[field] ?? "The body must be a JSON object");
  }
  if (result.data.location === undefined && result.data.unit_id === undefined) {
    throw invalidParameter("Invalid location", fieldMessages.location);
  }
  return result.data;
}
