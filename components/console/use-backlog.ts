"use client";

import { useQuery } from "@tanstack/react-query";
import type { HealthReport } from "@/lib/health/report";

/** The backlog changes only during a database outage: a slow poll is enough. */
export const BACKLOG_POLL_MS = 10_000;

/**
 * How many webhook calls the server accepted while its database was down and has not recorded
 * yet (GET /api/health, whose checks the dashboard's session may read). The answer is 503 while
 * the database is down; its body still counts the backlog, so it is read whatever the status.
 */
export function useBacklog(): number | undefined {
  const { data } = useQuery({
    queryKey: ["health", "backlog"],
    queryFn: async () => {
      const response = await fetch("/api/health", { credentials: "same-origin" });
      const body = (await response.json()) as Partial<HealthReport>;
      return body.checks?.backlog.pending ?? 0;
    },
    refetchInterval: BACKLOG_POLL_MS,
    retry: false,
  });
  return data;
}
