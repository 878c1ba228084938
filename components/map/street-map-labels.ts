import type { LabelRule } from "protomaps-leaflet";

/**
 * Places a street map may name: populated places (a city, town, village or neighbourhood) and the
 * country and region they lie in. Not a ZIP code's or a post office's name, whatever kind an
 * archive gives it.
 */
const POPULATED_PLACE_KINDS = new Set(["country", "region", "locality", "neighbourhood", "macrohood", "microhood", "borough"]);
const POSTAL = /post|postal|zip/i;
/** Layers whose names a street map shows: places (as above), streets and water. Points of interest never. */
const LABEL_LAYERS = new Set(["places", "roads", "water"]);

export function streetMapLabelAllowed(dataLayer: string, props: Readonly<Record<string, unknown>>): boolean {
  if (!LABEL_LAYERS.has(dataLayer)) return false;
  return dataLayer !== "places" || (POPULATED_PLACE_KINDS.has(String(props.kind)) && !POSTAL.test(String(props.kind_detail ?? "")));
}

/** A theme's label rules, each kept to the labels streetMapLabelAllowed admits. */
export function allowedLabelRules(rules: readonly LabelRule[]): LabelRule[] {
  return rules
    .filter((rule) => LABEL_LAYERS.has(rule.dataLayer))
    .map((rule) => ({
      ...rule,
      filter: (zoom, feature) => streetMapLabelAllowed(rule.dataLayer, feature.props) && (rule.filter?.(zoom, feature) ?? true),
    }));
}
