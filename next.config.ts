import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its WebAssembly and extension bundles from its own package directory at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pino"],
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
};

export default nextConfig;
