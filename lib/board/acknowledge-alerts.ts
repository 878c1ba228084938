import type { Actor } from "../access/actor";
import { acknowledgeIncidents } from "../acknowledgements/acknowledge";
import { withFeedLock } from "../feed";
import { DomainError } from "../domain-error";
import { type AlertKind, alertRows } from "./alerts";

/**
 * POST /api/live/alerts/acknowledge (docs/dashboard.md, "Alerts"): every alert of one kind, real or
 * training, acknowledged at once: the incidents alerting now (new and reminders, `exercise` the one
 * shown, as GET /api/live/alerts reads them), read under the feed's lock so none passes unseen
 * between the read and the write. A trainer acknowledges training alerts only (FORBIDDEN).
 */
export async function acknowledgeAllAlerts(kind: AlertKind, exercise: string | undefined, actor: Actor): Promise<{ acknowledged: number }> {
  if (kind === "real" && !actor.permissions.has("dispatch")) {
    throw new DomainError("FORBIDDEN", "Only a dispatcher may acknowledge real incidents' alerts; a trainer training ones only");
  }
  return withFeedLock(async (tx) => {
    const { fresh, reminded } = await alertRows(tx, exercise, kind);
    const ids = [...new Set([...fresh, ...reminded].map((row) => row.id))];
    return { acknowledged: await acknowledgeIncidents(tx, ids, actor) };
  });
}
