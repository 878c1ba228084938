// postinstall: generate the Prisma client into lib/db/generated (`npm run db:generate`) and the
// geocoder's place index into lib/geocoding/generated (scripts/place-index.ts).
// Plain JavaScript, because it also runs where devDependencies are absent: after
// `npm prune --omit=dev` (or an install with --omit=dev) there is neither the prisma CLI nor tsx,
// and nothing to do, since `npm run build` compiled the client into the build output and wrote
// the place index (a server that finds no index makes one from the packages on first need).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
try {
  require.resolve("prisma/package.json");
  require.resolve("tsx/package.json");
} catch {
  console.log("postinstall: the prisma CLI or tsx is not installed (production install); using the build's client and place index.");
  process.exit(0);
}
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const generate = spawnSync(npm, ["run", "db:generate"], { stdio: "inherit", shell: process.platform === "win32" });
if (generate.status !== 0) process.exit(generate.status ?? 1);
const index = spawnSync(process.execPath, ["--import", "tsx", "scripts/place-index.ts"], { stdio: "inherit" });
process.exit(index.status ?? 1);
