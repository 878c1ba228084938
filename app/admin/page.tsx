import type { Metadata } from "next";
import { AdminView } from "@/components/admin/AdminView";
import { personForPage } from "../page-gate";

export const metadata: Metadata = { title: "People and keys · Mayday dispatch" };
export const dynamic = "force-dynamic";

export default async function AdminPage() {
  return <AdminView person={await personForPage("/admin", "admin")} />;
}
