/**
 * Who may do what: the roles a person holds and the permissions each grants (docs/security.md).
 * Pure data, shared by the endpoint registry (each operation names the permission it needs), the
 * server's checks and the dashboard (which hides what the role lacks).
 */

import type { Permission, Requirement } from "../contract/permissions";

export { PERMISSIONS, type Permission, type Requirement } from "../contract/permissions";

export const ROLES = ["viewer", "dispatcher", "trainer", "admin"] as const;
export type Role = (typeof ROLES)[number];

/**
 * - read: every call, incident, exercise and the live picture;
 * - dispatch: call and incident status, merge, split;
 * - train: simulations, exercises and the status of training (simulated) calls and incidents;
 * - admin: people, roles, keys, the audit trail and webhook subscriptions.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  viewer: ["read"],
  dispatcher: ["read", "dispatch"],
  trainer: ["read", "train"],
  admin: ["read", "dispatch", "train", "admin"],
};

export const ROLE_LABEL: Record<Role, string> = {
  viewer: "Viewer",
  dispatcher: "Dispatcher",
  trainer: "Trainer",
  admin: "Administrator",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function permissionsOf(role: Role): ReadonlySet<Permission> {
  return new Set(ROLE_PERMISSIONS[role]);
}

/** True when `held` satisfies `requirement`. */
export function satisfies(held: ReadonlySet<Permission>, requirement: Requirement): boolean {
  if (requirement === "public") return true;
  const anyOf: readonly Permission[] = typeof requirement === "string" ? [requirement] : requirement;
  return anyOf.some((permission) => held.has(permission));
}
