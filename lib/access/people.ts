import { recordAudit } from "../audit/record-audit";
import type { Db } from "../db/client";
import { uuid7 } from "../db/uuid7";
import { withDatabase } from "../db/with-database";
import { DomainError, notFound } from "../domain-error";
import type { Actor } from "./actor";
import { getAuth } from "./auth";
import { revokeKeysBeyond } from "./keys";
import { permissionsOf, type Role } from "./roles";
import type { CreateUserRequest, NewPerson, UserView, WhoAmI } from "./schema";

/**
 * People (the users table's one door besides better-auth's sign-in): created by an administrator
 * or at first run, their role changed, removed. Each change and its audit row are one transaction.
 * A removed person's sessions go with them (ON DELETE CASCADE) and their keys are revoked; a lowered
 * person's keys beyond the new role are revoked (keys.ts): their next request is refused.
 */

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

interface UserRow {
  id: string;
  name: string;
  email: string;
  role: Role;
  created_at: Date;
}

const toView = (row: UserRow): UserView => ({ ...row, created_at: row.created_at.toISOString() });

/** Two administrators can never both be "the first": first-run creation holds this lock. */
const FIRST_ADMIN_LOCK = 7243001101;

async function insertPerson(tx: Tx, person: NewPerson, role: Role, passwordHash: string): Promise<UserRow> {
  const id = uuid7();
  const [row] = await tx.$queryRaw<UserRow[]>`
    INSERT INTO users (id, name, email, email_verified, role) VALUES (${id}, ${person.name}, ${person.email}, false, ${role})
    ON CONFLICT (email) DO NOTHING
    RETURNING id, name, email, role, created_at`;
  if (!row) throw new DomainError("CONFLICT", `Someone with the email ${person.email} exists already`);
  // better-auth's email-and-password account: provider "credential", the account id is the user's.
  await tx.$executeRaw`
    INSERT INTO accounts (id, account_id, provider_id, user_id, password) VALUES (${uuid7()}, ${id}, 'credential', ${id}, ${passwordHash})`;
  return row;
}

async function hashPassword(password: string): Promise<string> {
  return (await (await getAuth()).$context).password.hash(password);
}

export async function createUser(request: CreateUserRequest, actor: Actor): Promise<UserView> {
  const passwordHash = await hashPassword(request.password);
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      const row = await insertPerson(tx, request, request.role, passwordHash);
      await recordAudit(tx, actor, { action: "user.created", target: { kind: "user", id: row.id }, after: { name: row.name, email: row.email, role: row.role } });
      return toView(row);
    }),
  );
}

/** True while nobody exists: only then may the first administrator be created without signing in. */
export async function setupNeeded(): Promise<boolean> {
  return withDatabase(async (db) => (await db.$queryRaw<{ exists: boolean }[]>`SELECT EXISTS (SELECT 1 FROM users) AS exists`)[0].exists === false);
}

/**
 * The first administrator (POST /api/setup, or ADMIN_EMAIL and ADMIN_PASSWORD at start). Refused
 * with CONFLICT once anyone exists. The audit row names the new administrator as the actor.
 */
export async function createFirstAdmin(person: NewPerson, address?: string): Promise<UserView> {
  const passwordHash = await hashPassword(person.password);
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK}::bigint)`;
      const [{ exists }] = await tx.$queryRaw<{ exists: boolean }[]>`SELECT EXISTS (SELECT 1 FROM users) AS exists`;
      if (exists) throw new DomainError("CONFLICT", "An administrator exists already: sign in");
      const row = await insertPerson(tx, person, "admin", passwordHash);
      const actor: Actor = { kind: "user", id: row.id, name: row.name, role: "admin", permissions: permissionsOf("admin"), address };
      await recordAudit(tx, actor, { action: "user.created", target: { kind: "user", id: row.id }, after: { name: row.name, email: row.email, role: "admin", first_run: true } });
      return toView(row);
    }),
  );
}

export async function listUsers(): Promise<{ users: UserView[] }> {
  return withDatabase(async (db) => ({
    users: (await db.$queryRaw<UserRow[]>`SELECT id, name, email, role, created_at FROM users ORDER BY name, id`).map(toView),
  }));
}

async function lockUser(tx: Tx, id: string): Promise<UserRow> {
  const [row] = await tx.$queryRaw<UserRow[]>`SELECT id, name, email, role, created_at FROM users WHERE id = ${id} FOR UPDATE`;
  if (!row) throw notFound(`No user with id ${id}`);
  return row;
}

/** The service must keep someone who can administer it. */
async function requireAnotherAdmin(tx: Tx, id: string): Promise<void> {
  // Locks every administrator's row, so two administrators demoting each other at once cannot both succeed.
  const admins = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE role = 'admin' FOR UPDATE`;
  if (!admins.some((admin) => admin.id !== id)) {
    throw new DomainError("CONFLICT", "This is the last administrator: make someone else an administrator first");
  }
}

export async function setUserRole(id: string, role: Role, actor: Actor): Promise<UserView> {
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      const before = await lockUser(tx, id);
      if (before.role === role) return toView(before);
      if (before.role === "admin") await requireAnotherAdmin(tx, id);
      const [after] = await tx.$queryRaw<UserRow[]>`
        UPDATE users SET role = ${role}, updated_at = now() WHERE id = ${id} RETURNING id, name, email, role, created_at`;
      await recordAudit(tx, actor, { action: "user.role_changed", target: { kind: "user", id }, before: { role: before.role }, after: { role } });
      await revokeKeysBeyond(tx, id, role, actor);
      return toView(after);
    }),
  );
}

export async function removeUser(id: string, actor: Actor): Promise<void> {
  await withDatabase((db) =>
    db.$transaction(async (tx) => {
      const before = await lockUser(tx, id);
      if (before.role === "admin") await requireAnotherAdmin(tx, id);
      await tx.$executeRaw`DELETE FROM users WHERE id = ${id}`;
      await recordAudit(tx, actor, { action: "user.removed", target: { kind: "user", id }, before: { name: before.name, email: before.email, role: before.role } });
      await revokeKeysBeyond(tx, id, undefined, actor);
    }),
  );
}

/** GET /api/session: who the request is from. */
export async function whoAmI(actor: Actor): Promise<WhoAmI> {
  const email =
    actor.kind === "user"
      ? await withDatabase(async (db) => (await db.$queryRaw<{ email: string }[]>`SELECT email FROM users WHERE id = ${actor.id}`)[0]?.email ?? null)
      : null;
  return { kind: actor.kind, id: actor.id, name: actor.name, email, role: actor.role ?? null, permissions: [...actor.permissions] };
}

/**
 * ADMIN_EMAIL and ADMIN_PASSWORD: the first administrator made at start, for deployments set up
 * without a browser. Nothing happens once anyone exists.
 */
export async function createAdminFromEnvironment(email: string | undefined, password: string | undefined): Promise<UserView | undefined> {
  if (!email || !password || !(await setupNeeded())) return undefined;
  try {
    return await createFirstAdmin({ name: "Administrator", email: email.toLowerCase(), password });
  } catch (error) {
    // Another instance starting at the same moment made it.
    if (error instanceof DomainError && error.code === "CONFLICT") return undefined;
    throw error;
  }
}
