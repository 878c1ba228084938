import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { DomainError } from "../domain-error";
import type { Actor } from "./actor";

/** What an action touches: one call (as its locked row says), or an incident with every one of its calls. */
export type ActionTarget = { call: { simulation: boolean } } | { incident: string };

/**
 * Whether every call of an incident is a training call (simulated, exercise calls included): what
 * lets a trainer act on it. `incidentId` is a value or a column (`i.id`); one index probe of
 * calls (incident_id, simulation, ...). The incident answers carry it as `training`.
 */
export function trainingOnlySql(incidentId: Prisma.Sql | string): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (SELECT 1 FROM calls WHERE incident_id = ${incidentId} AND NOT simulation)`;
}

export async function trainingOnly(tx: Pick<Db, "$queryRaw">, incidentId: string): Promise<boolean> {
  const [{ training }] = await tx.$queryRaw<{ training: boolean }[]>(Prisma.sql`SELECT ${trainingOnlySql(incidentId)} AS training`);
  return training;
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
    const training = "call" in target ? target.call.simulation : await trainingOnly(tx, target.incident);
    if (training) return;
  }
  const what = "call" in target ? "this call is" : "this incident holds";
  throw new DomainError("FORBIDDEN", `Only a dispatcher may act on real calls; a trainer on training calls only, and ${what} a real one`);
}
