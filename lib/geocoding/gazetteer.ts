import { getPlaceIndex } from "./places";
import { type GazetteerEntry, SCENARIO_GAZETTEER } from "./scenario-areas";
import { normalise, phrasesOf, segmentsOf, type Segment } from "./text";
import type { GeocodeResult, Precision } from "./types";
import { TYPICAL_UNCERTAINTY_METERS } from "./uncertainty";

interface Candidate {
  latitude: number;
  longitude: number;
  precision: Precision;
  /** A named scenario area: beats what the place lists could add. */
  scenarioArea: boolean;
  label: string;
  state: string;
  score: number;
}

const scenarioIndex = new Map<string, GazetteerEntry>();
for (const entry of SCENARIO_GAZETTEER) {
  for (const alias of entry.aliases) scenarioIndex.set(normalise(alias), entry);
}

/**
 * How much a kind of match is worth. A named scenario area beats a ZIP, which beats a town name;
 * a longer phrase beats a shorter one; agreeing with a state the caller named is worth most, and
 * contradicting it rules the match out.
 */
const BASE_SCORE: Record<"area" | "postal_code" | "place" | "city", number> = {
  area: 60,
  postal_code: 55,
  place: 30,
  city: 25,
};
const STATE_AGREES = 100;
const PER_WORD = 5;

function mentionedStates(segments: Segment[]): Set<string> {
  const states = new Set(segments.flatMap((segment) => (segment.state ? [segment.state] : [])));
  // "LA" at the end of a part is Louisiana or Los Angeles.
  if (states.has("LA")) states.add("CA");
  return states;
}

function stateScore(state: string, states: Set<string>): number {
  if (states.size === 0) return 0;
  return states.has(state) ? STATE_AGREES : -STATE_AGREES;
}

function scenarioCandidates(segments: Segment[], states: Set<string>): Candidate[] {
  return segments.flatMap((segment) =>
    phrasesOf(segment.words).flatMap((phrase) => {
      const entry = scenarioIndex.get(phrase);
      if (!entry) return [];
      return [{
        latitude: entry.latitude,
        longitude: entry.longitude,
        precision: "locality",
        scenarioArea: entry.kind === "area",
        label: `${entry.name}, ${entry.state}`,
        state: entry.state,
        score: BASE_SCORE[entry.kind] + PER_WORD * phrase.split(" ").length + stateScore(entry.state, states),
      }];
    }),
  );
}

async function placeCandidates(segments: Segment[], states: Set<string>): Promise<Candidate[]> {
  const places = await getPlaceIndex();
  const candidates: Candidate[] = [];
  for (const segment of segments) {
    const zip = segment.zip ? places.zip(segment.zip) : undefined;
    if (zip) {
      candidates.push({
        latitude: zip.latitude,
        longitude: zip.longitude,
        precision: "postal_code",
        scenarioArea: false,
        label: `${zip.zip} ${zip.name}, ${zip.state}`,
        state: zip.state,
        score: BASE_SCORE.postal_code + stateScore(zip.state, states),
      });
    }
    for (const phrase of phrasesOf(segment.words)) {
      // A bare word ("park", "hope") is a town only when it is the whole part or a state backs it.
      const wholePart = phrase === segment.core;
      for (const place of places.placesNamed(phrase)) {
        const agrees = states.has(place.state);
        if (!wholePart && !agrees) continue;
        candidates.push({
          latitude: place.latitude,
          longitude: place.longitude,
          precision: "locality",
          scenarioArea: false,
          label: `${place.name}, ${place.state}`,
          state: place.state,
          // The ZIP count (under one point) only breaks ties between places of the same name.
          score:
            BASE_SCORE.place + PER_WORD * phrase.split(" ").length + stateScore(place.state, states) +
            Math.min(place.zipCount, 99) / 100,
        });
      }
    }
  }
  return candidates;
}

function best(candidates: Candidate[]): Candidate | undefined {
  return candidates.filter((candidate) => candidate.score > 0).sort((a, b) => b.score - a.score)[0];
}

/**
 * The embedded geocoder: scenario areas and their nicknames first, then US ZIPs and places from
 * offline data (loaded on first need). None of it resolves street addresses: the point is the
 * area's, city's or ZIP's centre, and `precision` says which (`locality` or `postal_code`). Null when nothing matches.
 */
export async function lookupGazetteer(text: string): Promise<GeocodeResult | null> {
  const segments = segmentsOf(text);
  if (segments.length === 0) return null;
  const states = mentionedStates(segments);
  const scenario = best(scenarioCandidates(segments, states));
  // A scenario area beats anything the place lists could add, unless the caller named a ZIP.
  const match =
    scenario?.scenarioArea && !segments.some((segment) => segment.zip)
      ? scenario
      : best([...(scenario ? [scenario] : []), ...(await placeCandidates(segments, states))]);
  if (!match) return null;
  return {
    latitude: match.latitude,
    longitude: match.longitude,
    precision: match.precision,
    uncertaintyMeters: TYPICAL_UNCERTAINTY_METERS[match.precision],
    source: "gazetteer",
    label: match.label,
  };
}
