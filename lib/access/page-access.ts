import { getConfig } from "../config";
import type { Actor } from "./actor";
import { authenticate, hasSessionCookie } from "./authenticate";
import { setupNeeded, whoAmI } from "./people";
import { satisfies, type Requirement } from "./roles";
import type { WhoAmI } from "./schema";

/** What a dashboard page shows the browser asking for it. */
export type PageAccess =
  | { kind: "setup" }
  | { kind: "sign-in" }
  | { kind: "forbidden"; person: WhoAmI }
  | { kind: "allowed"; person: WhoAmI };

/**
 * The dashboard's pages are for people: until the first administrator exists every page leads to
 * first-run set-up; then a browser without a valid session is sent to sign in, and a person whose
 * role lacks the page's permission is told so.
 */
export async function pageAccess(headers: Headers, requirement: Requirement = "read"): Promise<PageAccess> {
  if (await setupNeeded()) return { kind: "setup" };
  if (!hasSessionCookie(headers)) return { kind: "sign-in" };
  let actor: Actor;
  try {
    ({ actor } = await authenticate(headers, getConfig().API_KEY));
  } catch {
    return { kind: "sign-in" };
  }
  const person = await whoAmI(actor);
  return satisfies(actor.permissions, requirement) ? { kind: "allowed", person } : { kind: "forbidden", person };
}
