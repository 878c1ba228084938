"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { createContext, useContext, useState, type ReactNode } from "react";
import { ROLE_LABEL, type Permission, type Requirement, satisfies } from "@/lib/access/roles";
import type { WhoAmI } from "@/lib/access/schema";
import { listSubscriptions, signOut } from "./api";

/**
 * The signed-in person, as the page's server check found them: the header shows who it is, and
 * controls the role lacks are hidden (the server refuses them all the same).
 */
const PersonContext = createContext<WhoAmI | null>(null);

export function PersonProvider({ person, children }: { person: WhoAmI; children: ReactNode }) {
  return <PersonContext.Provider value={person}>{children}</PersonContext.Provider>;
}

export function usePerson(): WhoAmI | null {
  return useContext(PersonContext);
}

/** Whether the signed-in person's role grants `requirement`. */
export function useCan(requirement: Requirement): boolean {
  const person = usePerson();
  return person !== null && satisfies(new Set<Permission>(person.permissions), requirement);
}

/**
 * Acting on a call or an incident (its status, corrections, notes): a dispatcher any; a trainer,
 * training calls and incidents only (lib/access/status-rule.ts).
 */
export function useMayAct(training: boolean): boolean {
  const dispatch = useCan("dispatch");
  const train = useCan("train");
  return dispatch || (training && train);
}

/** How many webhook subscriptions are failing (re-read every minute): the administration menu says so. */
function useFailingWebhooks(): number {
  const subscriptions = useQuery({ queryKey: ["subscriptions"], queryFn: listSubscriptions, refetchInterval: 60_000 });
  return subscriptions.data?.subscriptions.filter((subscription) => subscription.health === "failing").length ?? 0;
}

/**
 * The administrators' pages behind one "Admin" menu, so the header stays one line from 1280 px;
 * the menu's own label says when webhooks are failing.
 */
function AdminMenu() {
  const failing = useFailingWebhooks();
  const warning = failing > 0 ? ` (${failing} failing)` : "";
  return (
    <details className="admin-menu">
      <summary className={failing > 0 ? "webhooks-failing" : undefined}>Admin{warning}</summary>
      <nav aria-label="Administration" className="admin-links">
        <Link href="/admin">People and keys</Link>
        <Link href="/admin/audit">Audit trail</Link>
        <Link href="/admin/gis">GIS data</Link>
        <Link href="/admin/units">Units</Link>
        <Link href="/admin/plans">Response plans</Link>
        <Link href="/admin/subscriptions" className={failing > 0 ? "webhooks-failing" : undefined} data-testid="webhooks-link">
          Webhooks{warning}
        </Link>
      </nav>
    </details>
  );
}

export function PersonMenu() {
  const person = usePerson();
  const router = useRouter();
  const [leaving, setLeaving] = useState(false);
  if (!person) return null;
  const leave = async () => {
    setLeaving(true);
    await signOut().catch(() => undefined);
    router.replace("/login");
  };
  return (
    <div className="person-menu">
      <span data-testid="signed-in-person">
        <strong>{person.name}</strong> <span className="role-badge" data-testid="signed-in-role">{person.role ? ROLE_LABEL[person.role] : "Key"}</span>
      </span>
      <Link href="/reports">Reports</Link>
      {person.permissions.includes("admin") && <AdminMenu />}
      <button type="button" onClick={leave} disabled={leaving}>Sign out</button>
    </div>
  );
}
