"use client";

import type { Box } from "@/lib/geocoding/map-streets-schema";
import { useExerciseVisibility } from "../training/exercise-visibility";
import { type Bounds, REGIONS } from "./regions";
import { useMapArea } from "./use-map-area";

const boundsOf = ([west, south, east, north]: Box): Bounds => [[south, west], [north, east]];

/**
 * The map's quick jumps (docs/dashboard.md, "Region jumps"): the centre's communities from its GIS
 * data, the training scenarios' areas only while exercise calls are shown, and every open incident.
 */
export function MapRegions({ onRegion, onFitAll }: { onRegion: (bounds: Bounds) => void; onFitAll: () => void }) {
  const communities = useMapArea().data?.communities ?? [];
  const training = useExerciseVisibility() === "show";
  return (
    <nav className="map-jumps" aria-label="Map regions">
      {communities.map((community) => (
        <button key={`community:${community.name}`} type="button" onClick={() => onRegion(boundsOf(community.bounds))}>{community.name}</button>
      ))}
      {training &&
        REGIONS.map((region) => (
          <button key={region.scenario} type="button" className="training-region" onClick={() => onRegion(region.bounds)}>{region.label}</button>
        ))}
      <button type="button" onClick={onFitAll}>Fit all</button>
    </nav>
  );
}
