/** The answer with `cookies` set (sign-in and sign-out). */
export function withCookies(response: Response, cookies: string[]): Response {
  for (const cookie of cookies) response.headers.append("set-cookie", cookie);
  return response;
}

/** A 302 to `location` setting `cookies` (sign-in with an identity provider). */
export function redirectWithCookies({ location, cookies }: { location: string; cookies: string[] }): Response {
  return withCookies(new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } }), cookies);
}
