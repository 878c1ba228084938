import { preload } from "react-dom";
import { Dashboard } from "@/components/console/Dashboard";
import { BOARD_URL } from "@/components/shared/api";
import { getConfig } from "@/lib/config";
import { personForPage } from "./page-gate";

// The map's tile URL and street map are read from the environment when the page is served, not frozen into the build.
export const dynamic = "force-dynamic";

export default async function HomePage() {
  const person = await personForPage("/");
  // The board starts loading with the HTML instead of after the scripts (counts and first view sooner).
  preload(BOARD_URL, { as: "fetch", crossOrigin: "anonymous" });
  const config = getConfig();
  return <Dashboard basemap={{ tileUrl: config.NEXT_PUBLIC_MAP_TILE_URL, streetMapUrl: config.MAP_PMTILES_URL }} person={person} />;
}
