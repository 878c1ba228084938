import { describe, expect, it } from "vitest";
import { isOpen, severityOf, statusOptions } from "@/components/call-status";
import { normaliseSeverity } from "@/lib/webhook/payload";
import { callsToCsv } from "@/components/csv";
import { formatWaiting } from "@/components/format";
import type { CallRecord } from "@/components/api";

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

describe("CSV export", () => {
  const call: CallRecord = {
    conversation_id: "conv-1", timestamp: 1_795_300_000, summary: 'Caller said "help", twice\nthen hung up',
    created_at: "2026-11-21T23:00:00.000Z", emergency_type: "gas_leak", location: "12 Main St, Malibu",
    latitude: 34.02, longitude: -118.77, severity: "high", status: "active", simulation: false,
    scenario: null, scenario_name: null, agent_id: "agent-1", call_successful: true, duration_secs: 60,
    transcript_length: 4, table_name: "calls",
  };

  it("writes a header and quotes fields with commas, quotes or line breaks", () => {
    const [header, row] = callsToCsv([call]).split("\r\n");
    expect(header.split(",")[0]).toBe("conversation_id");
    expect(row).toContain('"12 Main St, Malibu"');
    expect(callsToCsv([call])).toContain('"Caller said ""help"", twice\nthen hung up"');
    expect(row.startsWith("conv-1,1795300000,2026-11-21T23:00:00.000Z,gas_leak,high,active,")).toBe(true);
  });

  it("leaves missing values empty", () => {
    const row = callsToCsv([call]).split("\r\n")[1];
    expect(row).toContain(",false,,,");
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
