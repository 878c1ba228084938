import { DomainError } from "../domain-error";
import type { Actor } from "./actor";

/**
 * Who may act on a call or an incident (move it along the status workflow, correct it, write its
 * notes): a dispatcher any, a trainer only training ones (simulated, exercise calls included), so
 * an exercise never touches real calls.
 */
const mayAct = (actor: Actor, training: boolean) => actor.permissions.has("dispatch") || (training && actor.permissions.has("train"));

export function requireMayChangeStatus(actor: Actor, training: boolean): void {
  if (!mayAct(actor, training)) throw new DomainError("FORBIDDEN", "Only a dispatcher may change a real call or incident; a trainer, training ones");
}

export function requireMayAddNote(actor: Actor, training: boolean): void {
  if (!mayAct(actor, training)) throw new DomainError("FORBIDDEN", "Only a dispatcher may add notes to a real incident; a trainer, to training ones");
}
