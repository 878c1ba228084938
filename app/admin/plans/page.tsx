import type { Metadata } from "next";
import { ResponsePlansView } from "@/components/admin/ResponsePlansView";
import { personForPage } from "../../page-gate";

export const metadata: Metadata = { title: "Response plans · Mayday dispatch" };
export const dynamic = "force-dynamic";

export default async function ResponsePlansPage() {
  return <ResponsePlansView person={await personForPage("/admin/plans", "admin")} />;
}
