import { randomUUID } from "node:crypto";
import { createUser } from "@/lib/access/people";
import type { Role } from "@/lib/access/roles";
import type { UserView } from "@/lib/access/schema";
import { signIn } from "@/lib/access/session";
import { testAdmin } from "./auth";

export const TEST_PASSWORD = "correct horse battery staple";

export interface SignedInPerson {
  user: UserView;
  email: string;
  /** The Cookie header a browser would send after signing in. */
  cookie: string;
}

/** A person of `role`, created by the API key's administrator, and signed in as the dashboard does. */
export async function signedIn(role: Role, name = `Test ${role}`): Promise<SignedInPerson> {
  const email = `${role}-${randomUUID()}@example.org`;
  const user = await createUser({ name, email, password: TEST_PASSWORD, role }, testAdmin);
  const { cookies } = await signIn({ email, password: TEST_PASSWORD }, new Headers(), "127.0.0.1", false);
  return { user, email, cookie: cookies.map((cookie) => cookie.split(";")[0]).join("; ") };
}
