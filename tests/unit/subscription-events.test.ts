import { describe, expect, it } from "vitest";
import type { CallRecord } from "@/lib/calls/schema";
import type { IncidentRecord } from "@/lib/incidents/schema";
import { isPrivateAddress } from "@/lib/net/address";
import { eventsOf, type FeedEntry } from "@/lib/subscriptions/events";
import { RETRY_POLICY, retryDelayMs } from "@/lib/subscriptions/retry";

const incident = (status: IncidentRecord["status"] = "active"): IncidentRecord => ({
  id: "inc-1",
  emergency_type: "structure_fire",
  severity: "critical",
  status,
  location: "1 Main St",
  latitude: null,
  longitude: null,
  location_precision: null,
  first_call_at: "2026-11-25T10:00:00.000Z",
  last_call_at: "2026-11-25T10:05:00.000Z",
  call_count: 2,
});

/** A call row of the window as readWindow answers it. */
const entry = (fields: Partial<FeedEntry> & Pick<FeedEntry, "change">): FeedEntry => ({
  changedAt: new Date(0),
  call: { conversation_id: `conv-${fields.change}`, incident_id: "inc-1" } as CallRecord,
  callRowId: `row-${fields.change}`,
  announcedChange: fields.change,
  statusChange: fields.change,
  waiting: false,
  incident: incident(),
  incidentLatest: fields.change,
  incidentFirstAnnounced: fields.change,
  ...fields,
});

const ids = (events: ReturnType<typeof eventsOf>) => events.map((event) => event.id);

describe("events derived from a window of the change feed", () => {
  it("announces a new call and its new incident at the call's change", () => {
    expect(ids(eventsOf([entry({ change: 11 })], 10, 20))).toEqual(["evt_11_call.created", "evt_11_incident.created"]);
  });

  it("sends each event once: the stamp lies in one window only", () => {
    const row = entry({ change: 15, announcedChange: 11, statusChange: 15, incidentLatest: 15, incidentFirstAnnounced: 11 });
    const first = eventsOf([row], 10, 12);
    const second = eventsOf([row], 12, 20);
    expect(ids(first)).toEqual(["evt_11_call.created", "evt_11_incident.created"]);
    expect(ids(second)).toEqual(["evt_15_call.status_changed", "evt_15_incident.updated"]);
  });

  it("folds two status moves read together into one event, and sends the creation even when folded", () => {
    // Announced at 11, status moved at 13 and again at 14: the row holds 14.
    const row = entry({ change: 14, announcedChange: 11, statusChange: 14, incidentLatest: 14, incidentFirstAnnounced: 11 });
    expect(ids(eventsOf([row], 10, 20))).toEqual(["evt_11_call.created", "evt_11_incident.created", "evt_14_call.status_changed", "evt_14_incident.updated"]);
  });

  it("gives an incident changed by several calls one update, at its latest change, in stamp order", () => {
    const first = entry({ change: 12, announcedChange: 5, statusChange: 12, incidentLatest: 13, incidentFirstAnnounced: 5 });
    const second = entry({ change: 13, announcedChange: 6, statusChange: 13, incidentLatest: 13, incidentFirstAnnounced: 5, incident: incident("resolved") });
    expect(ids(eventsOf([second, first], 10, 20))).toEqual([
      "evt_12_call.status_changed",
      "evt_13_call.status_changed",
      "evt_13_incident.closed",
    ]);
  });

  it("says nothing of a call waiting for the grouper, and nothing twice of a status set at creation", () => {
    expect(eventsOf([entry({ change: 11, waiting: true })], 10, 20)).toEqual([]);
    expect(ids(eventsOf([entry({ change: 11, statusChange: 9, incidentLatest: 11, incidentFirstAnnounced: 3 })], 10, 20))).toEqual([
      "evt_11_call.created",
      "evt_11_incident.updated",
    ]);
  });
});

describe("retry delays", () => {
  it("double from 5 s up to 1 h, each drawn between half and all of its step", () => {
    expect(retryDelayMs(1, RETRY_POLICY, () => 0)).toBe(2_500);
    expect(retryDelayMs(1, RETRY_POLICY, () => 1)).toBe(5_000);
    expect(retryDelayMs(4, RETRY_POLICY, () => 1)).toBe(40_000);
    expect(retryDelayMs(30, RETRY_POLICY, () => 1)).toBe(3_600_000);
    expect(retryDelayMs(30, RETRY_POLICY, () => 0)).toBe(1_800_000);
  });
});

describe("private addresses", () => {
  it.each(["127.0.0.1", "10.0.0.8", "172.20.1.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "not-an-address"])(
    "refuses %s",
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );
  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});
