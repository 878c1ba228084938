"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { addNote, ApiRequestError, getNotes } from "../shared/api";
import { useNotify } from "../shared/providers";
import { rereadQueries } from "../shared/reread";

/** The open incident's notes; the change feed marks them stale when one is kept (use-change-feed). */
export function useIncidentNotes(id: string) {
  return useQuery({ queryKey: ["notes", id], queryFn: () => getNotes(id) });
}

export function useAddNote(id: string) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: ({ text, unitId }: { text: string; unitId?: string }) => addNote(id, text, unitId),
    onError: (error) => notify(`The note was not kept: ${error instanceof ApiRequestError ? error.message : "unexpected error"}`),
    onSettled: () => rereadQueries(client, { queryKey: ["notes", id] }),
  });
}
