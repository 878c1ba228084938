/** The reports API as the dashboard uses it (docs/reports.md). Client-side code only. */

import type { IntervalsReport } from "@/lib/reports/schema";
import { request } from "../shared/api";

export type { IntervalsReport };

export interface IntervalsQuery {
  /** `YYYY-MM-DDTHH:mm`, UTC (the API reads a time without offset as UTC). */
  from: string;
  to: string;
  calls: string;
  exerciseId: string;
}

export function intervalsSearch({ from, to, calls, exerciseId }: IntervalsQuery): string {
  const search = new URLSearchParams({ from, to, calls });
  if (exerciseId !== "" && calls !== "real") search.set("exercise_id", exerciseId);
  return search.toString();
}

export function getIntervals(query: IntervalsQuery): Promise<IntervalsReport> {
  return request(`/api/reports/intervals?${intervalsSearch(query)}`);
}

export const intervalsCsvUrl = (query: IntervalsQuery) => `/api/reports/intervals.csv?${intervalsSearch(query)}`;
