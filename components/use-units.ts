"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ApiRequestError, assignUnits, listUnits } from "./api";
import { useNotify } from "./providers";
import { rereadQueries } from "./reread";

/** The roster with each unit's state (GET /api/units): read again when the change feed carries a unit. */
export function useUnits() {
  return useQuery({ queryKey: ["units"], queryFn: listUnits, staleTime: Infinity });
}

interface Refused {
  call_sign: string;
  reason: string;
}

/**
 * Sends one unit to an incident. A unit that is not free is refused by the server (409
 * UNIT_UNAVAILABLE, with why); the dispatcher is asked, and a yes sends it with confirmation.
 */
export function useSendUnit() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: async ({ unitId, incidentId }: { unitId: string; incidentId: string }) => {
      try {
        return await assignUnits(incidentId, [unitId], false);
      } catch (error) {
        const refused = (error as ApiRequestError).code === "UNIT_UNAVAILABLE" ? ((error as ApiRequestError).details.units as Refused[]) : undefined;
        if (!refused) throw error;
        const why = refused.map((unit) => `${unit.call_sign} is ${unit.reason}`).join("; ");
        if (!window.confirm(`${why}. Send it to incident ${incidentId} anyway?`)) return undefined;
        return assignUnits(incidentId, [unitId], true);
      }
    },
    onError: (error) => notify(`The unit was not sent: ${error.message}`),
    // Not awaited: the mutation would stay pending until the roster is read again, and Send ignores
    // a press while pending: a second try right after a "no" would be lost.
    onSettled: () => void rereadQueries(client, { queryKey: ["units"] }),
  });
}
