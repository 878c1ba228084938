import { describe, expect, it } from "vitest";
import { isOpen, severityOf, statusOptions } from "@/components/shared/call-status";
import { normaliseSeverity } from "@/lib/calls/handed-over";
import { formatWaiting } from "@/components/shared/format";
import { formatCoordinates, precisionLabel, uncertaintyCircle } from "@/components/shared/precision";
import { unitTimer } from "@/components/console/UnitBoard";

describe("the status buttons the dashboard offers", () => {
  it("offers every later status and failed for an open call", () => {
    expect(statusOptions("active")).toEqual(["dispatched", "enroute", "resolved", "failed"]);
    expect(statusOptions("dispatched")).toEqual(["enroute", "resolved", "failed"]);
    expect(statusOptions("enroute")).toEqual(["resolved", "failed"]);
  });

  it("offers nothing for a final or unknown status", () => {
    expect(statusOptions("resolved")).toEqual([]);
    expect(statusOptions("failed")).toEqual([]);
    expect(statusOptions("ringing")).toEqual([]);
    expect(isOpen("resolved")).toBe(false);
    expect(isOpen("enroute")).toBe(true);
  });

  it("draws an unknown severity as the webhook stores it: high", () => {
    expect(severityOf("critical")).toBe("critical");
    expect(severityOf("moderate")).toBe("moderate");
    for (const unknown of ["HIGH", "urgent", "purple", ""]) {
      expect(severityOf(unknown)).toBe(normaliseSeverity("purple"));
      expect(severityOf(unknown)).toBe("high");
    }
  });
});

describe("waiting time", () => {
  it("shows minutes and seconds under an hour, hours and minutes beyond", () => {
    expect(formatWaiting(0)).toBe("0:00");
    expect(formatWaiting(65.9)).toBe("1:05");
    expect(formatWaiting(3599)).toBe("59:59");
    expect(formatWaiting(3600 + 5 * 60)).toBe("1 h 05 m");
    expect(formatWaiting(-4)).toBe("0:00");
  });
});

describe("a location's precision as the dashboard shows it", () => {
  it("says what the point stands for, with its radius past an address point", () => {
    expect(precisionLabel("locality", 3000)).toBe("town centre, about 3 km");
    expect(precisionLabel("locality", 15_000)).toBe("town centre, about 15 km");
    expect(precisionLabel("address_point", 10)).toBe("address point");
    expect(precisionLabel("street", null)).toBe("street, about 500 m");
    expect(precisionLabel(null, null)).toBe("precision unknown");
  });

  it("prints coordinates at the precision they have", () => {
    expect(formatCoordinates(25.790712, -80.130049, "address_point")).toBe("25.79071, -80.13005");
    expect(formatCoordinates(25.790712, -80.130049, "street")).toBe("25.791, -80.130");
    expect(formatCoordinates(25.790712, -80.130049, "locality")).toBe("25.79, -80.13");
  });

  it("draws an uncertainty circle only coarser than a street", () => {
    expect(uncertaintyCircle("locality", 3000)).toBe(3000);
    expect(uncertaintyCircle("postal_code", null)).toBe(3000);
    expect(uncertaintyCircle("street", 500)).toBeNull();
    expect(uncertaintyCircle(null, null)).toBeNull();
  });
});

describe("the unit board's timers", () => {
  const changed = "2026-11-26T12:00:00.000Z";
  const at = (seconds: number) => Date.parse(changed) + seconds * 1000;
  it("turn to a warning after the state's threshold, and never for a free or out-of-service unit", () => {
    expect(unitTimer({ state: "dispatched", state_changed_at: changed }, at(89))).toEqual({ seconds: 89, overdue: false });
    expect(unitTimer({ state: "dispatched", state_changed_at: changed }, at(90))).toEqual({ seconds: 90, overdue: true });
    expect(unitTimer({ state: "en_route", state_changed_at: changed }, at(479)).overdue).toBe(false);
    expect(unitTimer({ state: "en_route", state_changed_at: changed }, at(480)).overdue).toBe(true);
    expect(unitTimer({ state: "available", state_changed_at: changed }, at(86_400)).overdue).toBe(false);
    expect(unitTimer({ state: "out_of_service", state_changed_at: changed }, at(86_400)).overdue).toBe(false);
  });
});

