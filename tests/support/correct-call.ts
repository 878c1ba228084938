import { PATCH as patchCall } from "@/app/api/calls/[id]/route";
import { apiRequest } from "./auth";

/** PATCH /api/calls/{id} as the admin key: a dispatcher's correction or move of one call, its status and body. */
export async function correctCall(id: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await patchCall(
    apiRequest(`http://localhost/api/calls/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    { params: Promise.resolve({ id }) },
  );
  return { status: response.status, body: await response.json() };
}
