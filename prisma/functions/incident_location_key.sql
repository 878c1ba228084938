-- The normalised address that groups calls not street level (lib/incidents/grouping.ts uses this
-- same function; docs/incidents.md, "Grouping"): lower case, runs of anything but letters and
-- digits as one space, and the street suffixes and directionals of USPS Publication 28 in their
-- abbreviations ("2200 Collins Avenue" and "2200 collins ave." agree; "South" is "s"). A small
-- normaliser, the one place a full address parser replaces; the abbreviations are a JSON object
-- because a lookup in a constant is cheaper than a join for each call written.
CREATE OR REPLACE FUNCTION "incident_location_key"(location TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(string_agg(coalesce(
    '{"avenue": "ave", "av": "ave", "street": "st", "road": "rd", "boulevard": "blvd", "drive": "dr",
      "lane": "ln", "court": "ct", "place": "pl", "terrace": "ter", "highway": "hwy",
      "parkway": "pkwy", "circle": "cir", "square": "sq", "trail": "trl", "expressway": "expy",
      "freeway": "fwy", "plaza": "plz", "causeway": "cswy", "alley": "aly", "point": "pt",
      "north": "n", "south": "s", "east": "e", "west": "w",
      "northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw"}'::jsonb ->> w.word, w.word), ' ' ORDER BY w.n), '')
  FROM regexp_split_to_table(btrim(regexp_replace(lower(location), '[^a-z0-9]+', ' ', 'g')), ' ')
    WITH ORDINALITY AS w(word, n)
$$;
