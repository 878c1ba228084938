import { z } from "zod";
import { EARLIEST_INSTANT_MS, idCursorParameter, queryParameter } from "../query-parameters";

/** Every action the audit trail records (docs/security.md, "Audit trail"). */
export const AUDIT_ACTIONS = [
  "call.taken",
  "call.status_changed",
  "call.corrected",
  "call.viewed",
  "call.recording_played",
  "call.instruction_written",
  "call.instruction_delivered",
  "call.transfer_requested",
  "incident.status_changed",
  "incident.status_undone",
  "incident.corrected",
  "incident.merged",
  "incident.split",
  "incident.duplicate_dismissed",
  "incident.note_added",
  "incident.acknowledged",
  "incident.units_assigned",
  "unit.created",
  "unit.updated",
  "unit.imported",
  "unit.state_changed",
  "unit.state_undone",
  "response_plan.changed",
  "simulation.run",
  "exercise.created",
  "exercise.started",
  "exercise.paused",
  "exercise.resumed",
  "exercise.stopped",
  "subscription.created",
  "subscription.updated",
  "subscription.removed",
  "subscription.replayed",
  "gis.imported",
  "key.created",
  "key.revoked",
  "user.created",
  "user.role_changed",
  "user.removed",
  "session.signed_in",
  "session.sign_in_failed",
  "session.signed_out",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const ACTOR_KINDS = ["user", "key", "anonymous"] as const;

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string().meta({ description: "When, ISO 8601" }),
  actor: z.object({
    kind: z.enum(ACTOR_KINDS),
    id: z.string().nullable().meta({ description: "The user's or key's id; null for an anonymous attempt" }),
    name: z.string().meta({ description: "The person's or key's name at the time (for a failed sign-in: the email tried)" }),
  }),
  action: z.enum(AUDIT_ACTIONS),
  target: z.object({ kind: z.string(), id: z.string() }).nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  client_address: z.string().nullable(),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({
  events: z.array(auditEventSchema).meta({ description: "Newest first" }),
  next_cursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next (older) page; null on the last" }),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

const isoTime = z.iso.datetime({ offset: true }).refine((time) => Date.parse(time) >= EARLIEST_INSTANT_MS);

/** A name this endpoint once read: refused, so a filter an old script sends is never silently dropped. */
const renamedParameter = (name: string, replacement: string) =>
  queryParameter({
    schema: z.never().optional(),
    description: `Not accepted: use ${replacement}`,
    label: `Invalid ${name}`,
    message: `${name} is not a filter; use ${replacement}`,
  });

export const auditQueryParameters = {
  actor: queryParameter({
    schema: z.string().min(1).max(200).optional(),
    description: "Only this actor: a user's or key's id",
    label: "Invalid actor",
    message: "actor must be a user's or key's id",
  }),
  action: queryParameter({
    schema: z.enum(AUDIT_ACTIONS).optional(),
    description: "Only this action",
    label: "Invalid action",
    message: `action must be one of: ${AUDIT_ACTIONS.join(", ")}`,
  }),
  target_kind: queryParameter({
    schema: z.string().min(1).max(50).optional(),
    description: "Only changes of targets of this kind (call, incident, exercise, key, user, subscription)",
    label: "Invalid target_kind",
    message: "target_kind must be a target's kind",
  }),
  target_id: queryParameter({
    schema: z.string().min(1).max(200).optional(),
    description: "Only changes of this target (a call's conversation_id, an incident's, key's or user's id)",
    label: "Invalid target_id",
    message: "target_id must be an id",
  }),
  from: queryParameter({
    schema: isoTime.optional(),
    description: "From this time (inclusive), ISO 8601 with offset",
    label: "Invalid from",
    message: "from must be an ISO 8601 date-time with offset",
  }),
  to: queryParameter({
    schema: isoTime.optional(),
    description: "Before this time (exclusive), ISO 8601 with offset",
    label: "Invalid to",
    message: "to must be an ISO 8601 date-time with offset",
  }),
  target: renamedParameter("target", "target_id"),
  since: renamedParameter("since", "from"),
  until: renamedParameter("until", "to"),
  limit: queryParameter({
    schema: z.coerce.number().int().min(1).max(500).default(100),
    description: "Events per page (1-500, default 100)",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 500",
  }),
  cursor: idCursorParameter,
};
