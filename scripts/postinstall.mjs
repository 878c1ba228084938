// postinstall: generate the Prisma client into lib/db/generated (`npm run db:generate`).
// Plain JavaScript, because it also runs where devDependencies are absent: after
// `npm prune --omit=dev` (or an install with --omit=dev) there is no prisma CLI, and nothing to do,
// since `npm run build` compiled the client into the build output.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
try {
  require.resolve("prisma/package.json");
} catch {
  console.log("postinstall: the prisma CLI is not installed (production install); using the client in the build.");
  process.exit(0);
}
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const result = spawnSync(npm, ["run", "db:generate"], { stdio: "inherit", shell: process.platform === "win32" });
process.exit(result.status ?? 1);
