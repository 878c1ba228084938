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

function filesUnder(root: string, relative: string, skipped: readonly string[]): string[] {
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
