import { apiRoute, json } from "@/lib/http/respond";
import { readIncidentQueue } from "@/lib/board/incident-queue";

export const dynamic = "force-dynamic";

export const GET = apiRoute("liveIncidents", "GET", async ({ query }) =>
  json(
    await readIncidentQueue(query.after, query.limit!, {
      visibility: query.exercises,
      section: query.section,
      kind: query.kind,
      sort: query.sort,
      scenario: query.scenario,
      area: query.area,
    }),
  ),
);
