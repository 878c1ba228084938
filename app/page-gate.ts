import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { pageAccess } from "@/lib/access/page-access";
import type { Requirement } from "@/lib/access/roles";
import type { WhoAmI } from "@/lib/access/schema";

/** The signed-in person a dashboard page is for, or the redirect to set-up or sign-in. */
export async function personForPage(path: string, requirement: Requirement = "read"): Promise<WhoAmI> {
  const access = await pageAccess(await headers(), requirement);
  if (access.kind === "setup") redirect("/setup");
  if (access.kind === "sign-in") redirect(`/login?next=${encodeURIComponent(path)}`);
  if (access.kind === "forbidden") redirect("/");
  return access.person;
}
