/**
 * Map jumps to the four scenario regions (centres from decisions.md). Kept client-side so the
 * dashboard bundle does not pull the simulator's server modules.
 */
export interface Region {
  scenario: string;
  label: string;
  center: [number, number];
  zoom: number;
}

export const REGIONS: Region[] = [
  { scenario: "la_wildfire", label: "Los Angeles", center: [34.07, -118.62], zoom: 11 },
  { scenario: "nashville_tornado", label: "Nashville", center: [36.165, -86.78], zoom: 13 },
  { scenario: "earthquake_sf", label: "San Francisco", center: [37.785, -122.42], zoom: 13 },
  { scenario: "hurricane_florida", label: "South Florida", center: [26.25, -80.1], zoom: 9 },
];

export const SCENARIO_NAMES: Record<string, string> = {
  la_wildfire: "Los Angeles Wildfire",
  nashville_tornado: "Nashville Tornado Outbreak",
  earthquake_sf: "San Francisco Earthquake",
  hurricane_florida: "Florida Hurricane",
};
