import { getConfig } from "../config";
import { clientAddress } from "./client-address";

/** Secure cookies only over HTTPS, so a plain-HTTP deployment on a closed network keeps its sessions. */
export const isHttps = (request: Request) =>
  new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";

/** The client's address as rate limits and the audit trail see it. */
export const requestAddress = (request: Request) => clientAddress(request.headers, getConfig().TRUST_PROXY);
