import { ReportsView } from "@/components/reports/ReportsView";
import type { IntervalsQuery } from "@/components/reports/report-api";
import { personForPage } from "../page-gate";

export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
/** `YYYY-MM-DDTHH:mm` in UTC, the form's inputs' format. */
const minuteUtc = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/** The form's first values: the link's, else the last 24 hours of real calls (an exercise's when one is named). */
function initialQuery(params: SearchParams): IntervalsQuery {
  const now = Date.now();
  // The minute after now: a time without seconds is that instant, and the calls of this minute count.
  const to = (first(params.to) ?? minuteUtc(now + 60_000)).slice(0, 16);
  const toMs = Date.parse(`${to}Z`);
  const from = (first(params.from) ?? minuteUtc((Number.isNaN(toMs) ? now : toMs) - 86_400_000)).slice(0, 16);
  const exerciseId = first(params.exercise_id) ?? "";
  return { from, to, calls: first(params.calls) ?? (exerciseId ? "exercise" : "real"), exerciseId };
}

export default async function ReportsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await personForPage("/reports");
  return <ReportsView initial={initialQuery(await searchParams)} />;
}
