import type { Metadata } from "next";
import { SubscriptionsView } from "@/components/admin/SubscriptionsView";
import { personForPage } from "../../page-gate";

export const metadata: Metadata = { title: "Webhooks · Mayday dispatch" };
export const dynamic = "force-dynamic";

export default async function SubscriptionsPage() {
  return <SubscriptionsView person={await personForPage("/admin/subscriptions", "admin")} />;
}
