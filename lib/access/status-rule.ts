import { DomainError } from "../domain-error";
import type { Actor } from "./actor";

/**
 * Who may move a call or an incident along the status workflow, or correct it: a dispatcher any,
 * a trainer only training ones (simulated, exercise calls included), so an exercise never touches
 * real calls.
 */
export function requireMayChangeStatus(actor: Actor, training: boolean): void {
  if (actor.permissions.has("dispatch")) return;
  if (training && actor.permissions.has("train")) return;
  throw new DomainError("FORBIDDEN", "Only a dispatcher may change a real call or incident; a trainer, training ones");
}
