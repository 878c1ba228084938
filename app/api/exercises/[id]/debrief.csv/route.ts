import { computeDebrief, debriefCsv } from "@/lib/exercises/debrief";
import { apiRoute } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("exerciseDebriefCsv", "GET", async ({ params }) =>
  new Response(debriefCsv(await computeDebrief(params.id)), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="exercise-debrief.csv"',
    },
  }),
);
