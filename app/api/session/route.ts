import { z } from "zod";
import { closedSession, openSession } from "@/lib/access/session";
import { invalidParameter } from "@/lib/domain-error";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute } from "@/lib/http/respond";
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";

const sessionRequest = z.object({ api_key: z.string().min(1).max(1024) });

/** Cookies marked Secure only over HTTPS, so a plain-HTTP LAN deployment still keeps them. */
const isHttps = (request: Request) => new URL(request.url).protocol === "https:";

/** POST {api_key}: 204 with the session cookie; 401 UNAUTHORIZED for a wrong key. */
export const POST = apiRoute("session", async (request) => {
  const parsed = sessionRequest.safeParse(await readJsonBody(request, 4096));
  if (!parsed.success) throw invalidParameter("Invalid api_key", "api_key must be a non-empty string");
  const cookie = openSession(parsed.data.api_key, getConfig().API_KEY, isHttps(request));
  return new Response(null, { status: 204, headers: cookie ? { "set-cookie": cookie } : {} });
});

/** DELETE: forget the session (sign out). */
export const DELETE = apiRoute("session", async (request) => {
  return new Response(null, { status: 204, headers: { "set-cookie": closedSession(isHttps(request)) } });
});
