import { Dashboard } from "@/components/Dashboard";
import { getConfig } from "@/lib/config";

// The tile URL is read from the environment when the page is served, not frozen into the build.
export const dynamic = "force-dynamic";

export default function HomePage() {
  return <Dashboard tileUrl={getConfig().NEXT_PUBLIC_MAP_TILE_URL} />;
}
