import { apiRequest } from "@/tests/support/auth";
import { POST } from "@/app/api/simulate/route";
import type { SimulationResult } from "@/lib/simulation";

/** Either body of POST /api/simulate: the success fields or the simulation error format. */
export type SimulateBody = Partial<SimulationResult> & {
  error?: string;
  details?: string;
  timestamp?: string;
  error_code?: string;
  available_scenarios?: string[];
};

/** POSTs to /api/simulate through the route handler, as Next.js would. */
export async function postSimulate(
  body: unknown,
  headers: Record<string, string> = { "content-type": "application/json" },
): Promise<{ status: number; body: SimulateBody }> {
  const response = await POST(
    apiRequest("http://localhost/api/simulate", {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    undefined,
  );
  return { status: response.status, body: (await response.json()) as SimulateBody };
}
