/**
 * The permissions an operation may require (each endpoint's contract names one) and a role or a
 * key's scopes grant (lib/access/roles.ts, which re-exports them for the server's checks and the
 * dashboard). Pure data.
 */

export const PERMISSIONS = ["read", "dispatch", "train", "admin"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * What an operation requires: "public" (no credentials), one permission, or any of several (the
 * domain then narrows: a trainer's status change applies to training calls only).
 */
export type Requirement = "public" | Permission | readonly Permission[];
