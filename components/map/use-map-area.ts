"use client";

import { useQuery } from "@tanstack/react-query";
import { getMapArea } from "../shared/api";

/**
 * The centre's area from its GIS data (GET /api/map/area): its extent, the map's first view, and
 * its communities, the map's region buttons. Read again at most every five minutes: it changes
 * only with a GIS import.
 */
export function useMapArea() {
  return useQuery({ queryKey: ["map-area"], queryFn: getMapArea, staleTime: 5 * 60_000 });
}
