#!/usr/bin/env bash
# Webhook intake against the floor with the centre's GIS data loaded (docs/performance.md, "Centre
# GIS geocoding"): ../shared/perf/vs-service.sh as it is, with two steps added, after `npm run build`:
#
#   bench/gis-vs-floor.sh [ROWS]        # default 100000; more arguments go to bench.mjs (default --cases webhook)
#
# Before the service starts, the county of bench/gis-county.ts (1,000,000 address points, about
# 100,000 centrelines) is imported into its database with `npm run gis:import`. Before the kit's own
# rounds (whose events carry the platform's coordinates, so nothing is geocoded),
# bench/gis-webhook-rounds.ts posts events that name a county address and no coordinates to both,
# so the service places every one with the GIS index. The kit's script is copied with the steps
# inserted rather than edited: it belongs to the shared kit.
set -euo pipefail
project=$(cd "$(dirname "$0")/.." && pwd)
perf=$(cd "$project/../shared/perf" && pwd)
rows=${1:-100000}; shift || true
[ $# -gt 0 ] || set -- --cases webhook
county=$(mktemp -d /tmp/mayday-gis-county-XXXXXX)
script=$perf/.vs-service-with-gis-$$.sh
trap 'rm -rf "$county" "$script"' EXIT
(cd "$project" && npx tsx bench/gis-county.ts "$county")

cat >"$county/import.sh" <<STEP
(cd "\$project" && for layer in "$county/address-points.csv" "$county/centrelines.geojson"; do
  DATABASE_URL=\$PG/perf_service npm run -s gis:import -- "\$layer" >&2; done)
STEP
cat >"$county/rounds.sh" <<STEP
(cd "\$project" && npx tsx bench/gis-webhook-rounds.ts http://127.0.0.1:3918/api http://127.0.0.1:3920/api \$PG/perf_service "$county/spoken.json")
STEP
awk -v import_step="$county/import.sh" -v rounds_step="$county/rounds.sh" '
  /^SECRET=perf-secret PORT=3918 / { while ((getline line < import_step) > 0) print line; found++ }
  /^node bench.mjs / { while ((getline line < rounds_step) > 0) print line; found++ }
  { print }
  END { if (found != 2) { print "vs-service.sh changed: the GIS steps have no place" > "/dev/stderr"; exit 1 } }
' "$perf/vs-service.sh" >"$script"
bash "$script" "$project" "$rows" "$@"
