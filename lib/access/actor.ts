import { type Permission, PERMISSIONS, type Role } from "./roles";

/**
 * Who acts, and from where: what every write is attributed to (the call history's changed_by, the
 * audit trail's actor). A person signed in to the dashboard, or an API key (API_KEY or a scoped key).
 */
export interface Actor {
  kind: "user" | "key";
  /** The user's id, the scoped key's id, or "API_KEY". */
  id: string;
  /** The person's name, or the key's name. */
  name: string;
  /** A person's role (a key has scopes instead). */
  role?: Role;
  permissions: ReadonlySet<Permission>;
  /** The client's address (lib/http/client-address.ts), for the audit trail. */
  address?: string;
}

/** The reference kept in history rows: `user:<id>` or `key:<id>`. */
export const actorRef = (actor: Pick<Actor, "kind" | "id">) => `${actor.kind}:${actor.id}`;

/** The configured API_KEY: one administrator's key, working before any account exists. */
export const API_KEY_ACTOR: Actor = { kind: "key", id: "API_KEY", name: "API_KEY", permissions: new Set(PERMISSIONS) };
