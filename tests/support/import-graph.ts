import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The import graph of the service's own files, read with TypeScript's parser: every `import`,
 * `import type`, `export ... from`, `import("...")` (calls and type queries) and `require("...")`
 * naming a file of the project (`@/...` or a relative path). Packages are left out.
 */

export interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

const SOURCE = /\.(?:ts|tsx|mts)$/;

/** The source files under `relative` (a folder or one file), but those under a skipped prefix. */
export function filesUnder(root: string, relative: string, skipped: readonly string[]): string[] {
  const absolute = path.join(root, relative);
  if (!existsSync(absolute)) return [];
  if (statSync(absolute).isFile()) return SOURCE.test(relative) ? [relative] : [];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    const child = path.posix.join(relative, entry.name);
    if (skipped.some((prefix) => `${child}/`.startsWith(prefix))) return [];
    if (entry.isDirectory()) return filesUnder(root, child, skipped);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [child] : [];
  });
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
}

/** The module specifiers of one source file, each with whether only types come through it. */
export function specifiersOf(fileName: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnlyImport(node) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The project file a specifier names (as the bundler resolves it), or undefined for a package. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const absolute = path.join(root, candidate);
    if (existsSync(absolute) && statSync(absolute).isFile()) return candidate;
  }
  // A generated or data file (JSON, a build output): still an import of that place.
  return base;
}

/** Every import between the project's files under `scanned` (folders or single files). */
export function readImports(root: string, scanned: readonly string[], skipped: readonly string[] = []): Import[] {
  return scanned
    .flatMap((relative) => filesUnder(root, relative, skipped))
    .flatMap((from) =>
      specifiersOf(from, readFileSync(path.join(root, from), "utf8")).flatMap(({ specifier, typeOnly }) => {
        const to = resolveSpecifier(root, from, specifier);
        return to === undefined ? [] : [{ from, to, typeOnly }];
      }),
    );
}

/**
 * The layers, lowest first: each names its units (a folder, or a file without its extension). A
 * unit may import units of its own layer and of lower ones, never of a higher one; and no units
 * may import each other round a cycle, whatever their layers.
 */
export type Layers = readonly { name: string; units: readonly string[] }[];

export interface ImportDirection {
  /** Files whose unit no layer names. */
  unplaced: string[];
  /** Imports of a unit in a higher layer. */
  upward: Import[];
  /**
   * Sets of units that import each other round a cycle, each with its backward imports: those of
   * the fewest imports whose removal leaves the set one way (the rest go down in that order).
   */
  cycles: { units: string[]; backward: Import[] }[];
}

/** The unit a file belongs to: the longest unit name that is the file or one of its folders. */
export function unitOf(file: string, units: readonly string[]): string | undefined {
  const withoutExtension = file.replace(/\.[^./]+$/, "");
  let best: string | undefined;
  for (const unit of units) {
    if ((withoutExtension === unit || file.startsWith(`${unit}/`)) && (best === undefined || unit.length > best.length)) best = unit;
  }
  return best;
}

/** Strongly connected components of more than one node (Tarjan). */
function cyclesOf(nodes: readonly string[], edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components;
}

/**
 * The order of `units` (lowest first) in which the imports going up weigh least, by dynamic
 * programming over subsets (a cycle has few units); ties keep the given order.
 */
function leastBackwardOrder(units: readonly string[], weight: (from: string, to: string) => number): string[] {
  const count = units.length;
  const full = (1 << count) - 1;
  const best: { cost: number; last: number; previous: number }[] = [{ cost: 0, last: -1, previous: -1 }];
  for (let mask = 1; mask <= full; mask += 1) {
    for (let last = 0; last < count; last += 1) {
      if (!(mask & (1 << last))) continue;
      const previous = mask & ~(1 << last);
      // `last` comes above every unit of `previous`: their imports of it go up.
      let cost = best[previous].cost;
      for (let below = 0; below < count; below += 1) if (previous & (1 << below)) cost += weight(units[below], units[last]);
      if (best[mask] === undefined || cost < best[mask].cost) best[mask] = { cost, last, previous };
    }
  }
  const order: string[] = [];
  for (let mask = full; mask !== 0; mask = best[mask].previous) order.unshift(units[best[mask].last]);
  return order;
}

/** What breaks the layers: files no layer places, imports upward, units importing each other round a cycle. */
export function checkImportDirection(imports: readonly Import[], layers: Layers): ImportDirection {
  const units = layers.flatMap((layer) => layer.units);
  const layerOf = new Map(layers.flatMap((layer, level) => layer.units.map((unit) => [unit, level] as const)));
  const unplaced = new Set<string>();
  const upward: Import[] = [];
  const between: (Import & { fromUnit: string; toUnit: string })[] = [];
  for (const entry of imports) {
    const fromUnit = unitOf(entry.from, units);
    const toUnit = unitOf(entry.to, units);
    if (fromUnit === undefined) unplaced.add(entry.from);
    if (toUnit === undefined) unplaced.add(entry.to);
    if (fromUnit === undefined || toUnit === undefined || fromUnit === toUnit) continue;
    between.push({ ...entry, fromUnit, toUnit });
    if (layerOf.get(toUnit)! > layerOf.get(fromUnit)!) upward.push(entry);
  }
  const edges = new Map<string, Set<string>>();
  for (const { fromUnit, toUnit } of between) {
    if (!edges.has(fromUnit)) edges.set(fromUnit, new Set());
    edges.get(fromUnit)!.add(toUnit);
  }
  const cycles = cyclesOf(units, edges).map((members) => {
    const inside = between.filter(({ fromUnit, toUnit }) => members.includes(fromUnit) && members.includes(toUnit));
    const order = leastBackwardOrder(members, (from, to) => inside.filter((entry) => entry.fromUnit === from && entry.toUnit === to).length);
    const backward = inside
      .filter(({ fromUnit, toUnit }) => order.indexOf(toUnit) > order.indexOf(fromUnit))
      .map(({ from, to, typeOnly }) => ({ from, to, typeOnly }));
    return { units: members, backward };
  });
  return { unplaced: [...unplaced].sort(), upward, cycles };
}

/**
 * The files that loading `start` loads, each with the chain of imports that reaches it (from
 * `start` on). Type-only imports are left out: they are erased before the code runs.
 */
export function loadedBy(imports: readonly Import[], start: string): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const { from, to, typeOnly } of imports) {
    if (typeOnly) continue;
    if (!edges.has(from)) edges.set(from, []);
    edges.get(from)!.push(to);
  }
  const chains = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const to of edges.get(file) ?? []) {
      if (chains.has(to)) continue;
      chains.set(to, [...chains.get(file)!, to]);
      queue.push(to);
    }
  }
  return chains;
}

export interface Arrow {
  from: string;
  to: string;
}

export interface Drawing {
  nodes: string[];
  arrows: Arrow[];
}

/**
 * One subgraph of a mermaid flowchart in a markdown text: its nodes and its `a --> b` arrows, a
 * node written `id["label"]` named by its label and one written `id` by its id.
 */
export function flowchartSubgraph(markdown: string, subgraph: string): Drawing {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^\\s*subgraph ${subgraph}(?:\\[|\\s*$)`).test(line));
  if (start === -1) throw new Error(`no subgraph ${subgraph}`);
  const names = new Map<string, string>();
  const nodes = new Set<string>();
  const arrows: Arrow[] = [];
  const node = (written: string): string => {
    const [, id, label] = /^([\w-]+)(?:\["([^"]*)"\])?$/.exec(written.trim()) ?? [];
    if (id === undefined) throw new Error(`not a node: ${written}`);
    if (label !== undefined) names.set(id, label);
    return id;
  };
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "end") break;
    if (line.trim() === "" || line.trim().startsWith("%%")) continue;
    const ends = line.split("-->").map(node);
    ends.forEach((id) => nodes.add(id));
    for (let i = 1; i < ends.length; i += 1) arrows.push({ from: ends[i - 1], to: ends[i] });
  }
  const name = (id: string) => names.get(id) ?? id;
  return { nodes: [...nodes].map(name), arrows: arrows.map(({ from, to }) => ({ from: name(from), to: name(to) })) };
}

export interface UnitOrder {
  /** Units the drawing leaves out, and nodes of the drawing that are no unit. */
  undrawn: string[];
  unknown: string[];
  /** Arrows of the drawing with no import behind them. */
  unimported: Arrow[];
  /** Imports between two units that no path of the drawing's arrows allows. */
  outOfOrder: Import[];
}

/**
 * Whether the imports among `units` follow a drawn order: the drawing names every unit, each
 * import goes along a path of its arrows (a unit importing one the drawing puts beside or above
 * it fails, cycle or not), and each arrow is an import.
 */
export function checkUnitOrder(imports: readonly Import[], units: readonly string[], { nodes, arrows }: Drawing): UnitOrder {
  const drawn = new Set([...nodes, ...arrows.flatMap(({ from, to }) => [from, to])]);
  const below = new Map(units.map((unit) => [unit, new Set<string>()]));
  for (const unit of units) {
    const stack = [unit];
    for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
      for (const { from, to } of arrows) {
        if (from === at && !below.get(unit)!.has(to)) {
          below.get(unit)!.add(to);
          stack.push(to);
        }
      }
    }
  }
  const outOfOrder: Import[] = [];
  const imported = new Set<string>();
  for (const entry of imports) {
    const fromUnit = unitOf(entry.from, units);
    const toUnit = unitOf(entry.to, units);
    if (fromUnit === undefined || toUnit === undefined || fromUnit === toUnit) continue;
    imported.add(`${fromUnit} ${toUnit}`);
    if (!below.get(fromUnit)!.has(toUnit)) outOfOrder.push(entry);
  }
  return {
    undrawn: units.filter((unit) => !drawn.has(unit)),
    unknown: [...drawn].filter((node) => !units.includes(node)),
    unimported: arrows.filter(({ from, to }) => !imported.has(`${from} ${to}`)),
    outOfOrder,
  };
}
