import { apiRequest } from "./auth";

/** How each kind of requester authenticates: a person's session as the dashboard sends it (a cookie), or a key ({}: the test key). */
export type Credentials = Record<string, string>;

/** A JSON request to the API as `credentials`, to hand to a route handler. */
export const requestAs = (credentials: Credentials, url: string, method: string, body?: unknown) =>
  apiRequest(`http://localhost${url}`, {
    method,
    headers: { ...credentials, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A dynamic route's context for the id in its path. */
export const routeContext = (id: string) => ({ params: Promise.resolve({ id }) });
