import path from "node:path";
import type { BuildOptions } from "esbuild";

/**
 * How `npm run build` compiles scripts/server.ts: the project's own modules (and the generated
 * Prisma client) bundled into one ES module in the build output; every package import stays an
 * import, of a production dependency (tests/unit/production-server.test.ts checks that), so the
 * file runs after `npm prune --omit=dev`.
 */
export function serverBundleOptions(root: string): BuildOptions {
  return {
    entryPoints: [path.join(root, "scripts", "server.ts")],
    outfile: path.join(root, ".next", "mayday-server.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  };
}
