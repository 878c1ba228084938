import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Endpoint } from "@/lib/contract/endpoint";
import { declaredMethods, endpoints } from "@/lib/http/endpoints";
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { PLATFORMS } from "@/lib/vocabulary";

/**
 * Every route file under app/api against the endpoint registry and the OpenAPI document: a
 * route or method missing from either fails here, and so does a registry entry without its route.
 */
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const apiDirectory = path.join(process.cwd(), "app", "api");

/**
 * `calls/[id]/route.ts` -> `/api/calls/:id`; a `[platform]` route (lib/http/platform-route.ts) ->
 * each voice platform's path it serves, `/api/live-calls/vapi`: the registry's paths in its folder
 * named by a platform.
 */
function routeFiles(): { file: string; path: string }[] {
  return readdirSync(apiDirectory, { recursive: true, encoding: "utf8" })
    .filter((entry) => path.basename(entry) === "route.ts")
    .flatMap((entry) => {
      const file = path.join(apiDirectory, entry);
      const routePath = `/api/${path.dirname(entry).split(path.sep).join("/")}`;
      if (!routePath.endsWith("/[platform]")) return [{ file, path: routePath.replace(/\[(\w+)\]/g, ":$1") }];
      return PLATFORMS.map((platform) => ({ file, path: routePath.replace(/\[platform\]$/, platform) })).filter((served) =>
        registry.some((endpoint) => endpoint.path === served.path),
      );
    });
}

async function exportedMethods(file: string): Promise<string[]> {
  const routeModule = (await import(file)) as Record<string, unknown>;
  return HTTP_METHODS.filter((method) => typeof routeModule[method] === "function").sort();
}

const registry = Object.values(endpoints as Record<string, Endpoint>);
const files = routeFiles();

describe("the endpoint registry and the OpenAPI document cover every route file", () => {
  it("finds the route files", () => {
    expect(files.map((route) => route.path)).toEqual(expect.arrayContaining(["/api/calls", "/api/calls/:id", "/api/session"]));
  });

  it.each(files.map((route) => [route.path, route.file]))("%s: registry and document list its exported methods", async (routePath, file) => {
    const methods = await exportedMethods(file);
    expect(methods.length).toBeGreaterThan(0);
    const endpoint = registry.find((candidate) => candidate.path === routePath);
    expect(endpoint, `${routePath} is missing from lib/http/endpoints.ts`).toBeDefined();
    expect(declaredMethods(endpoint!).sort()).toEqual(methods);

    const pathItem = (buildOpenApiDocument().paths as Record<string, Record<string, unknown>>)[
      routePath.replace(/:(\w+)/g, "{$1}")
    ];
    expect(pathItem, `${routePath} is missing from the OpenAPI document`).toBeDefined();
    const documented = Object.keys(pathItem).filter((key) => HTTP_METHODS.includes(key.toUpperCase()));
    expect(documented.map((method) => method.toUpperCase()).sort()).toEqual(methods);
  });

  it("has a route file for every registry entry", () => {
    const routePaths = files.map((route) => route.path);
    for (const endpoint of registry) expect(routePaths, endpoint.path).toContain(endpoint.path);
  });

  it("lists every registry entry with each of its methods in docs/interface.md's Addresses", () => {
    const doc = readFileSync(path.join(process.cwd(), "docs", "interface.md"), "utf8");
    const rows = doc.slice(doc.indexOf("## Addresses"), doc.indexOf("\n## ", doc.indexOf("## Addresses") + 1)).split("\n").filter((line) => line.startsWith("| `"));
    for (const endpoint of registry) {
      const documented = endpoint.path.replace(/:(\w+)/g, "{$1}");
      const listed = rows.filter((line) => new RegExp(`${documented.replace(/[.{}]/g, "\\$&")}[\`?]`).test(line)).join("\n");
      expect(listed, `${documented} is missing from docs/interface.md`).not.toBe("");
      for (const method of declaredMethods(endpoint)) expect(listed, `${method} ${documented}`).toContain(`${method}`);
    }
  });
});
