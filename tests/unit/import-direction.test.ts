import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkImportDirection, checkUnitOrder, type Drawing, flowchartSubgraph, type Import, type ImportDirection, type Layers, loadedBy, readImports,
  specifiersOf, unitOf,
} from "../support/import-graph";

/**
 * Folders import one way (docs/architecture.md, "Layers"): a unit (a folder of lib/, a file at
 * lib/'s top, app/, components/, proxy.ts, instrumentation.ts) imports only units of its own layer
 * or lower ones, and no units import each other round a cycle, type-only imports included. Inside
 * the domain layer, imports follow the arrows the diagram draws. A new folder takes its place here
 * and in the diagram. An endpoint's declaration (lib/<concern>/endpoints.ts) loads no operation
 * (nothing that runs on the database, the configuration, a store, a transport or an I/O package),
 * so the registry, and proxy.ts with it, stay free of them. The change feed
 * (lib/feed) is entered by its door, lib/feed/index.ts: its lock and write turns are taken only
 * through a feed transaction.
 */

const ROOT = path.resolve(__dirname, "../..");

const LAYERS: Layers = [
  // Pure data and rules every layer speaks: no configuration, no I/O.
  { name: "vocabulary", units: ["lib/vocabulary", "lib/lookup-table", "lib/domain-error", "lib/storable-text", "lib/query-parameters", "lib/scenarios"] },
  // The environment, the log and the process's parts.
  { name: "process", units: ["lib/config", "lib/log", "lib/process-parts", "lib/circuit-breaker", "lib/drain-loop", "lib/redis"] },
  // Stores and transports, free of any domain.
  { name: "infrastructure", units: ["lib/db", "lib/storage", "lib/net", "lib/rate-limit", "lib/request-body"] },
  // What an endpoint's declaration is made of (its types, permissions, error codes, rate-limit
  // policies): each domain declares its endpoints with it, and lib/http composes them from above.
  { name: "contract", units: ["lib/contract"] },
  // One folder per concern; among them, too, imports go one way (no cycle).
  {
    name: "domain",
    units: [
      "lib/access", "lib/audit", "lib/geocoding", "lib/feed", "lib/calls", "lib/notes", "lib/acknowledgements", "lib/incidents", "lib/units", "lib/board", "lib/reports",
      "lib/simulation", "lib/exercises", "lib/eido", "lib/subscriptions", "lib/intake", "lib/voice-platforms", "lib/on-the-line", "lib/reconcile", "lib/health", "lib/call-taking",
    ],
  },
  // The HTTP layer (registry, protection, errors as HTTP, the OpenAPI document) and the dashboard's UI.
  { name: "interfaces", units: ["lib/http", "components"] },
  // Routes, pages and the process's entry points.
  { name: "entry points", units: ["app", "proxy", "instrumentation"] },
];

const SCANNED = ["app", "components", "lib", "proxy.ts", "instrumentation.ts"];
const SKIPPED = ["lib/db/generated/", "lib/geocoding/generated/"];

let projectImports: Import[] | undefined;
const imports = () => (projectImports ??= readImports(ROOT, SCANNED, SKIPPED));

/**
 * What an operation runs on and a declaration never loads: the process's parts (configuration,
 * log, Redis...), the stores and transports (the database client and Prisma's among them), and the
 * packages that open a connection or a file.
 */
const OPERATION_UNITS = [...LAYERS.find((layer) => layer.name === "process")!.units, "lib/db", "lib/storage", "lib/net", "lib/rate-limit"];
const isOperationModule = (file: string) => unitOf(file, OPERATION_UNITS) !== undefined;
const IO_PACKAGE = /^(?:node:)?(?:http|https|http2|net|tls|dns|fs|fs\/promises|child_process)$|^pg$|^@prisma\/|^@electric-sql\/|^redis$|^@upstash\/|^@vercel\/blob$/;
const ioPackagesOf = (file: string) =>
  specifiersOf(file, readFileSync(path.join(ROOT, file), "utf8")).filter(({ specifier, typeOnly }) => !typeOnly && IO_PACKAGE.test(specifier)).map(({ specifier }) => specifier);

/** The domain layer's order as docs/architecture.md draws it ("Layers"), each node standing for its folder of lib/. */
function drawnDomainOrder(): Drawing {
  const { nodes, arrows } = flowchartSubgraph(readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8"), "domain");
  const folder = (name: string) => `lib/${name}`;
  return { nodes: nodes.map(folder), arrows: arrows.map(({ from, to }) => ({ from: folder(from), to: folder(to) })) };
}

/** The change feed's door: the one file of lib/feed that other folders import. */
const FEED_DOOR = "lib/feed/index.ts";

/** Imports from outside `folder` of one of its files other than `door`. */
const pastTheDoor = (imports: readonly Import[], folder: string, door: string) =>
  imports.filter(({ from, to }) => to.startsWith(`${folder}/`) && !from.startsWith(`${folder}/`) && to !== door);

const show = ({ from, to, typeOnly }: Import) => `${from} -> ${to}${typeOnly ? " (type)" : ""}`;

/** The findings as lines a reader can act on. */
function describeFindings({ unplaced, upward, cycles }: ImportDirection): string[] {
  return [
    ...unplaced.map((file) => `not in any layer: ${file}`),
    ...upward.map((entry) => `upward: ${show(entry)}`),
    ...cycles.flatMap(({ units, backward }) => [`cycle among ${units.join(", ")}, closed by:`, ...backward.map((entry) => `  ${show(entry)}`)]),
  ];
}

describe("import direction", () => {
  it("reads every kind of import, and marks the type-only ones", () => {
    const source = [
      'import { a } from "./a";',
      'import type { B } from "@/lib/b";',
      'import { type C, type D } from "../c";',
      'import { type E, f } from "./e";',
      'export { g } from "./g";',
      'export type { H } from "./h";',
      'const i = await import("./i");',
      'type J = typeof import("./j");',
      'const k = require("./k");',
      'import { z } from "zod";',
    ].join("\n");
    expect(specifiersOf("x.ts", source)).toEqual([
      { specifier: "./a", typeOnly: false },
      { specifier: "@/lib/b", typeOnly: true },
      { specifier: "../c", typeOnly: true },
      { specifier: "./e", typeOnly: false },
      { specifier: "./g", typeOnly: false },
      { specifier: "./h", typeOnly: true },
      { specifier: "./i", typeOnly: false },
      { specifier: "./j", typeOnly: true },
      { specifier: "./k", typeOnly: false },
      { specifier: "zod", typeOnly: false },
    ]);
  });

  it("finds an upward import, a cycle (even of types), and a file outside every layer", () => {
    const layers: Layers = [
      { name: "low", units: ["lib/config"] },
      { name: "domain", units: ["lib/a", "lib/b", "lib/c"] },
    ];
    const imports: Import[] = [
      { from: "lib/a/x.ts", to: "lib/config.ts", typeOnly: false },
      { from: "lib/config.ts", to: "lib/a/y.ts", typeOnly: false },
      { from: "lib/a/x.ts", to: "lib/b/x.ts", typeOnly: false },
      { from: "lib/b/x.ts", to: "lib/c/x.ts", typeOnly: false },
      { from: "lib/c/x.ts", to: "lib/a/y.ts", typeOnly: true },
      { from: "lib/a/x.ts", to: "lib/a/y.ts", typeOnly: false },
      { from: "lib/d.ts", to: "lib/config.ts", typeOnly: false },
    ];
    const found = checkImportDirection(imports, layers);
    expect(found.unplaced).toEqual(["lib/d.ts"]);
    expect(found.upward).toEqual([{ from: "lib/config.ts", to: "lib/a/y.ts", typeOnly: false }]);
    expect(found.cycles).toEqual([
      {
        units: ["lib/a", "lib/b", "lib/c", "lib/config"],
        backward: [
          { from: "lib/config.ts", to: "lib/a/y.ts", typeOnly: false },
          { from: "lib/c/x.ts", to: "lib/a/y.ts", typeOnly: true },
        ],
      },
    ]);
    // One way, the same units pass.
    const oneWay = imports.filter((entry) => entry.from !== "lib/config.ts" && entry.from !== "lib/c/x.ts" && entry.from !== "lib/d.ts");
    expect(checkImportDirection(oneWay, layers)).toEqual({ unplaced: [], upward: [], cycles: [] });
  });

  it("holds for app/, components/ and lib/: every import goes down or sideways, none round a cycle", () => {
    expect(imports().length).toBeGreaterThan(1000);
    expect(describeFindings(checkImportDirection(imports(), LAYERS))).toEqual([]);
  });

  it("reads a drawn order, and finds an import against it (no cycle needed), an arrow with no import, a folder left out", () => {
    const markdown = [
      "```mermaid", "flowchart TB",
      '  subgraph low["Low"]', "    x", "  end",
      '  subgraph domain["Domain"]', "    %% a comment", "    c", "    b --> c", '    aa["a-a"] --> b', "  end",
      "```",
    ].join("\n");
    const drawing = flowchartSubgraph(markdown, "domain");
    expect(drawing).toEqual({ nodes: ["c", "b", "a-a"], arrows: [{ from: "b", to: "c" }, { from: "a-a", to: "b" }] });
    const imports: Import[] = [
      { from: "a-a/x.ts", to: "c/x.ts", typeOnly: true },
      { from: "b/x.ts", to: "c/x.ts", typeOnly: false },
      { from: "c/x.ts", to: "d/x.ts", typeOnly: false },
    ];
    expect(checkUnitOrder(imports, ["a-a", "b", "c", "d"], drawing)).toEqual({
      undrawn: ["d"],
      unknown: [],
      unimported: [{ from: "a-a", to: "b" }],
      outOfOrder: [{ from: "c/x.ts", to: "d/x.ts", typeOnly: false }],
    });
    expect(checkUnitOrder(imports.slice(0, 2), ["a-a", "b", "c"], { nodes: ["a-a", "b", "c", "e"], arrows: drawing.arrows }).unknown).toEqual(["e"]);
  });

  it("keeps the domain folders in the order docs/architecture.md draws: each import along its arrows, each arrow an import", () => {
    const domain = LAYERS.find((layer) => layer.name === "domain")!.units;
    const order = checkUnitOrder(imports(), domain, drawnDomainOrder());
    expect([
      ...order.undrawn.map((unit) => `not drawn: ${unit}`),
      ...order.unknown.map((node) => `drawn but no domain folder: ${node}`),
      ...order.unimported.map(({ from, to }) => `drawn but not imported: ${from} --> ${to}`),
      ...order.outOfOrder.map((entry) => `against the drawn order: ${show(entry)}`),
    ]).toEqual([]);
  });

  it("finds what loading a file loads, through every import but type-only ones", () => {
    const imports: Import[] = [
      { from: "e.ts", to: "s.ts", typeOnly: false },
      { from: "s.ts", to: "op.ts", typeOnly: false },
      { from: "op.ts", to: "db.ts", typeOnly: false },
      { from: "e.ts", to: "t.ts", typeOnly: true },
      { from: "t.ts", to: "db2.ts", typeOnly: false },
    ];
    expect(Object.fromEntries(loadedBy(imports, "e.ts"))).toEqual({
      "e.ts": ["e.ts"],
      "s.ts": ["e.ts", "s.ts"],
      "op.ts": ["e.ts", "s.ts", "op.ts"],
      "db.ts": ["e.ts", "s.ts", "op.ts", "db.ts"],
    });
  });

  it("tells an operation's module from a declaration's", () => {
    for (const file of ["lib/config.ts", "lib/log.ts", "lib/db/client.ts", "lib/db/generated/client.ts", "lib/storage/local.ts", "lib/net/address.ts"]) {
      expect(isOperationModule(file), file).toBe(true);
    }
    for (const file of ["lib/calls/schema.ts", "lib/contract/endpoint.ts", "lib/vocabulary.ts", "lib/voice-platforms/elevenlabs/payload.ts"]) expect(isOperationModule(file), file).toBe(false);
    for (const specifier of ["node:http", "https", "node:fs/promises", "pg", "@prisma/client", "@vercel/blob"]) expect(IO_PACKAGE.test(specifier), specifier).toBe(true);
    for (const specifier of ["zod", "node:crypto", "node:path"]) expect(IO_PACKAGE.test(specifier), specifier).toBe(false);
  });

  it("endpoint declarations (lib/*/endpoints.ts, the composed registry among them) load no operation: no database, configuration, store, transport or I/O package", () => {
    const declarations = readdirSync(path.join(ROOT, "lib"))
      .map((folder) => `lib/${folder}/endpoints.ts`)
      .filter((file) => existsSync(path.join(ROOT, file)));
    expect(declarations.length).toBeGreaterThan(10);
    expect(declarations).toContain("lib/http/endpoints.ts");
    const reached = declarations.flatMap((file) =>
      [...loadedBy(imports(), file)].flatMap(([loaded, chain]) => [
        ...(isOperationModule(loaded) ? [chain.join(" -> ")] : []),
        ...ioPackagesOf(loaded).map((specifier) => `${chain.join(" -> ")} -> ${specifier}`),
      ]),
    );
    expect(reached).toEqual([]);
  });


  it("finds an import of a folder's file past its door, from outside the folder only", () => {
    const imports: Import[] = [
      { from: "lib/notes/add.ts", to: "lib/feed/index.ts", typeOnly: false },
      { from: "lib/notes/add.ts", to: "lib/feed/lock.ts", typeOnly: false },
      { from: "lib/board/x.ts", to: "lib/feed/turns.ts", typeOnly: true },
      { from: "lib/feed/index.ts", to: "lib/feed/lock.ts", typeOnly: false },
      { from: "lib/feedback/x.ts", to: "lib/feedback/y.ts", typeOnly: false },
    ];
    expect(pastTheDoor(imports, "lib/feed", FEED_DOOR)).toEqual([imports[1], imports[2]]);
  });

  it("no folder outside lib/feed imports the feed's own files: only its door, lib/feed/index.ts", () => {
    expect(imports().filter(({ from, to }) => to === FEED_DOOR && !from.startsWith("lib/feed/")).length).toBeGreaterThan(3);
    expect(pastTheDoor(imports(), "lib/feed", FEED_DOOR).map(show)).toEqual([]);
  });
});
