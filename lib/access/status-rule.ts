import type { Db } from "../db/client";
import { DomainError } from "../domain-error";
import type { Actor } from "./actor";

/** What an action touches: one call (as its locked row says), or an incident with every one of its calls. */
export type ActionTarget = { call: { simulation: boolean } } | { incident: string };

async function holdsRealCall(tx: Pick<Db, "$queryRaw">, incidentId: string): Promise<boolean> {
  const [{ real }] = await tx.$queryRaw<{ real: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM calls WHERE incident_id = ${incidentId} AND NOT simulation) AS real`;
  return real;
}

/**
 * Who may act on calls (move them along the status workflow, correct them, write an incident's
 * notes): a dispatcher any, a trainer only when every call the action touches is a training one
 * (simulated, exercise calls included), so an exercise never touches a real call. An incident's
 * own flag is only its first call's, so its calls are asked (one index probe, and only for an
 * actor without `dispatch`). Run in the action's transaction, after the change feed's lock, which
 * keeps calls from moving in meanwhile.
 */
export async function requireMayAct(tx: Pick<Db, "$queryRaw">, actor: Actor, target: ActionTarget): Promise<void> {
  if (actor.permissions.has("dispatch")) return;
  if (actor.permissions.has("train")) {
    const training = "call" in target ? target.call.simulation : !(await holdsRealCall(tx, target.incident));
    if (training) return;
  }
  const what = "call" in target ? "this call is" : "this incident holds";
  throw new DomainError("FORBIDDEN", `Only a dispatcher may act on real calls; a trainer on training calls only, and ${what} a real one`);
}
