import { z } from "zod";
import { liveIncidentSchema } from "../live/schema";
import { queryParameter } from "../query-parameters";

/**
 * The zod schemas of alerts and their acknowledgements (docs/dashboard.md, "Alerts"). No database
 * import: the endpoint registry loads this.
 */

/** Entries of each kind an answer lists; `total` counts them all, the queue reaches every one. */
export const ALERTS_LISTED = 50;

export const alertIncidentSchema = liveIncidentSchema.extend({
  alert_at: z.int().meta({
    description: "Unix seconds: the newest unacknowledged call's receipt (new), or when the wait passed its threshold (reminder)",
  }),
  new_calls: z.int().meta({ description: "Calls received since the incident was last acknowledged (0 for a reminder)" }),
});
export type AlertIncident = z.infer<typeof alertIncidentSchema>;

const alertListSchema = (what: string) =>
  z.object({
    total: z.int().meta({ description: `Every ${what}` }),
    incidents: z.array(alertIncidentSchema).meta({ description: `The first ${ALERTS_LISTED} of them` }),
  });

export const alertsSchema = z.object({
  new: alertListSchema("open critical incident with a call received after its latest acknowledgement (newest first)"),
  reminders: alertListSchema(
    "incident waiting undispatched (active) longer than its severity's threshold since its first call or its latest acknowledgement (longest first)",
  ),
  thresholds_min: z
    .object({ critical: z.int(), high: z.int(), moderate: z.int() })
    .meta({ description: "Minutes an incident of each severity may wait undispatched before it is reminded (ALERT_REMIND_<SEVERITY>_MIN)" }),
});
export type Alerts = z.infer<typeof alertsSchema>;

export const alertsQueryParameters = {
  exercise: queryParameter({
    schema: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    description: "The training exercise shown: its incidents alert; other exercises' incidents never do.",
    label: "Invalid parameter",
    message: "exercise must be an exercise id",
  }),
};
