import { type LiveReport, storeLiveCall } from "../calls/write/live";
import { locatedPoint } from "../calls/write/write-calls";
import { getGeocoder } from "../geocoding/geocoder";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled, placementQuery } from "../incidents/grouping";
import { log } from "../log";
import { GEOCODE_TEXT_LIMIT } from "../calls/sanitise";
import type { Fields } from "../voice-platforms/fields";
import type { LiveCallIdentity } from "../voice-platforms/tools";
import { liveStatus, type LiveStatus } from "./incident-status";
import { readReport } from "./tools";

/** Where the spoken location is; a geocoder that fails costs the point, never the report. */
async function locate(location: string | null): Promise<Pick<LiveReport, "point" | "geocoderFailed">> {
  if (location === null) return { point: null, geocoderFailed: false };
  try {
    const found = await getGeocoder().geocode(location.slice(0, GEOCODE_TEXT_LIMIT));
    if (!found) return { point: null, geocoderFailed: false };
    return { point: locatedPoint(found), geocoderFailed: false };
  } catch (error) {
    log.warn({ err: error }, "live report stored without a point: geocoder failed");
    return { point: null, geocoderFailed: true };
  }
}

/**
 * `report_emergency`: what the agent knows so far goes on the board at once (the call on the line,
 * geocoded and in its incident: lib/calls/write/live.ts); answers what the agent may tell the caller.
 */
export async function reportEmergency(call: LiveCallIdentity, args: Fields): Promise<LiveStatus> {
  const said = readReport(args);
  const located = await locate(said.location);
  const grouping = groupingEnabled();
  const written = await storeLiveCall(
    {
      conversationId: call.conversationId,
      platform: call.platform,
      agentId: call.agentId,
      emergencyType: said.emergencyType,
      severity: said.severity,
      location: said.location,
      details: said.details,
      callerPhone: said.callbackNumber ?? call.callerPhone,
      ...located,
    },
    grouping ? placementQuery : undefined,
  );
  // A location that arrived after the call was stored, or could not be geocoded: the grouper places the call.
  if (grouping && written && said.location !== null && (!written.inserted || located.geocoderFailed)) groupSoon();
  log.info({ conversationId: call.conversationId, platform: call.platform, changed: written !== undefined }, "live report");
  return liveStatus(call.conversationId);
}
