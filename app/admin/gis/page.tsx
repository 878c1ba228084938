import type { Metadata } from "next";
import { GisDataView } from "@/components/admin/GisDataView";
import { personForPage } from "../../page-gate";

export const metadata: Metadata = { title: "GIS data · Mayday dispatch" };
export const dynamic = "force-dynamic";

export default async function GisDataPage() {
  return <GisDataView person={await personForPage("/admin/gis", "admin")} />;
}
