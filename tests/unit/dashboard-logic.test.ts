import { describe, expect, it } from "vitest";
import { isOpen, severityOf, statusOptions } from "@/components/call-status";
import { normaliseSeverity } from "@/lib/webhook/payload";
import { formatWaiting } from "@/components/format";

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
