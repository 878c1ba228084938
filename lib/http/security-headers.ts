import { envSchema } from "../config";

/**
 * Headers on every page and asset. Scripts are limited to this origin; inline scripts stay
 * allowed because Next writes its bootstrap data inline and nonces would force every page to
 * render per request. Images may come from the map tile host, and the street map's archive (range
 * requests) from its own. API answers carry API_SECURITY_HEADERS instead.
 */
export function tileOrigin(tileUrlTemplate: string): string | undefined {
  try {
    // `{s}` (Leaflet's subdomain placeholder) becomes a wildcard host label.
    const url = new URL(tileUrlTemplate.replace("{s}.", "subdomain-placeholder.").replace(/[{}]/g, ""));
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    return `${url.protocol}//${url.host.replace("subdomain-placeholder.", "*.")}`;
  } catch {
    // A relative template ("/tiles/{z}/{x}/{y}.png") is served from this origin.
    return undefined;
  }
}

export function contentSecurityPolicy(tileUrlTemplate: string, development = false, streetMapUrl?: string): string {
  const tiles = tileOrigin(tileUrlTemplate);
  const streetMap = streetMapUrl === undefined ? undefined : tileOrigin(streetMapUrl);
  return [
    "default-src 'self'",
    // React's development build evaluates code; production never does.
    `script-src 'self' 'unsafe-inline'${development ? " 'unsafe-eval'" : ""}`,
    // Leaflet positions tiles and markers with inline styles.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ""}`,
    "font-src 'self'",
    `connect-src 'self'${streetMap ? ` ${streetMap}` : ""}${development ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(tileUrlTemplate: string, development = false, streetMapUrl?: string): { key: string; value: string }[] {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(tileUrlTemplate, development, streetMapUrl) },
    { key: "X-Content-Type-Options", value: "nosniff" },
    // Tile servers (OpenStreetMap's policy) want a Referer; other sites get the origin only.
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  ];
}

/**
 * Headers on every API answer (/api/*): JSON, CSV, audio, never a document a browser renders, so
 * a policy that allows nothing and may not be framed (OWASP's REST Security Cheat Sheet), and none
 * of a page's features. The dashboard reads the API hundreds of times a minute in a surge: the
 * page's headers on each read cost it about 450 bytes (docs/performance.md, "Dashboard").
 */
export const API_SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
];

/**
 * For answers that reached the client over HTTPS only (browsers ignore it over plain HTTP, and a
 * closed network may serve plain HTTP on purpose). A year; not for subdomains, which may be other
 * services of the centre.
 */
export const STRICT_TRANSPORT_SECURITY = { key: "Strict-Transport-Security", value: "max-age=31536000" };

/** The headers for this deployment: its tile server is NEXT_PUBLIC_MAP_TILE_URL, its street map MAP_PMTILES_URL. */
export function deploymentSecurityHeaders(development = false): { key: string; value: string }[] {
  const { shape } = envSchema;
  return securityHeaders(
    shape.NEXT_PUBLIC_MAP_TILE_URL.parse(process.env.NEXT_PUBLIC_MAP_TILE_URL),
    development,
    shape.MAP_PMTILES_URL.safeParse(process.env.MAP_PMTILES_URL).data,
  );
}
