import type { Metadata } from "next";
import { AuditView } from "@/components/admin/AuditView";
import { personForPage } from "../../page-gate";

export const metadata: Metadata = { title: "Audit trail · Mayday dispatch" };
export const dynamic = "force-dynamic";

export default async function AuditPage() {
  return <AuditView person={await personForPage("/admin/audit", "admin")} />;
}
