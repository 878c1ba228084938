import { builtinModules } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { serverBundleOptions } from "../../scripts/server-bundle";

/** The package a bare import names: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

describe("the production server bundle (npm run start:production after npm prune --omit=dev)", () => {
  it("imports nothing but Node built-ins and production dependencies", async () => {
    const root = process.cwd();
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const result = await build({ ...serverBundleOptions(root), write: false, metafile: true, logLevel: "silent" });
    const imported = new Set(
      Object.values(result.metafile.outputs).flatMap((output) =>
        output.imports.filter((entry) => entry.external).map((entry) => entry.path),
      ),
    );
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    const packages = [...imported].filter((specifier) => !builtins.has(specifier)).map(packageOf);
    expect(packages).toContain("next");
    expect(packages).toContain("pg");
    for (const name of packages) {
      expect(manifest.dependencies, `${name} is imported by the production server`).toHaveProperty([name]);
    }
    // The generated Prisma client is compiled in, not loaded from lib/db/generated at run time.
    expect(Object.keys(result.metafile.inputs).some((input) => input.includes("lib/db/generated/"))).toBe(true);
  });
});
