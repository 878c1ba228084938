import type { Db } from "../db/client";
import { DomainError, invalidParameter } from "../domain-error";
import type { CallStatus } from "../vocabulary";
import { DISPOSITIONS } from "./dispositions";
import type { StatusMoveDetails } from "./status";

/**
 * What a person's (or a key's) status move of an incident must say (docs/incidents.md, "Dispatch
 * reason and disposition"): "dispatched" (or en route) means someone was sent, so with no unit on
 * the incident the move names why (`dispatch_reason`: a unit sent by radio or by another centre,
 * a key's system that keeps no units here), else 409 DISPATCH_WITHOUT_UNIT (asked of the move out
 * of active only: en route after a dispatch was asked then); a close (resolved,
 * failed) names how it ended (`disposition`), else 400. The moves the server makes itself (a unit
 * sent, the last unit cleared) are not asked: they carry their own facts. Answers what the move
 * records: a reason given while a unit is on the incident is not needed there, and not kept (the
 * intervals report lists the dispatches without a unit by it).
 */
export async function requireMoveDetails(
  tx: Pick<Db, "$queryRaw">,
  incident: { id: string; status: string },
  status: CallStatus,
  details: StatusMoveDetails,
): Promise<StatusMoveDetails> {
  const incidentId = incident.id;
  if ((status === "resolved" || status === "failed") && !details.disposition) {
    throw invalidParameter("Invalid disposition", `Closing an incident (${status}) needs a disposition: one of ${DISPOSITIONS.join(", ")}`);
  }
  if (status !== "dispatched" && status !== "enroute") return { disposition: details.disposition ?? null };
  // Only the move into the dispatched section is asked: en route after a dispatch was asked then.
  if (incident.status === "dispatched") return {};
  const [{ units }] = await tx.$queryRaw<{ units: number }[]>`
    SELECT count(*)::int AS units FROM unit_assignments WHERE incident_id = ${incidentId} AND cleared_at IS NULL`;
  if (units > 0) return {};
  if (!details.dispatchReason) {
    throw new DomainError(
      "DISPATCH_WITHOUT_UNIT",
      `No unit is on this incident: send one (POST /api/incidents/${incidentId}/units), or give dispatch_reason saying why it is ${status === "enroute" ? "en route" : "dispatched"} without one`,
    );
  }
  return { dispatchReason: details.dispatchReason };
}
