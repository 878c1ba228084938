import type { Metadata } from "next";
import { UnitRosterView } from "@/components/admin/UnitRosterView";
import { personForPage } from "../../page-gate";

export const metadata: Metadata = { title: "Units · Mayday dispatch" };
export const dynamic = "force-dynamic";

export default async function UnitRosterPage() {
  return <UnitRosterView person={await personForPage("/admin/units", "admin")} />;
}
