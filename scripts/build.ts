/**
 * `npm run build`: the geocoder's place index (scripts/place-index.ts), the Next app, then the
 * production server (see scripts/server-bundle.ts), so that `npm run start:production` needs
 * production dependencies only.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { serverBundleOptions } from "./server-bundle";

const root = process.cwd();

async function main(): Promise<void> {
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  // Next's CLI in a direct child (not through npx), so that signals reach the build itself.
  // The place index first: it is made from the installed packages, and Next's build traces it.
  const index = spawnSync(process.execPath, ["--import", "tsx", path.join("scripts", "place-index.ts")], { stdio: "inherit", env: process.env });
  if (index.status !== 0) throw new Error("the place index could not be generated");
  const nextCli = createRequire(path.join(root, "package.json")).resolve("next/dist/bin/next");
  const result = spawnSync(process.execPath, [nextCli, "build"], { stdio: "inherit", env: process.env });
  if (result.status !== 0) throw new Error("next build failed");
  // After next build, which empties .next: the server belongs to the build it was made with.
  await build(serverBundleOptions(root));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
