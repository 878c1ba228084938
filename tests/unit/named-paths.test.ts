import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * A path of the project that a doc (docs/*.md, README.md) or a comment (of the code, the tests, the
 * benches and prisma/functions) names exists: `lib/...`, `components/...`, `app/...`, `tests/...`,
 * `prisma/...`, `bench/...`, `docs/...`, `scripts/...`, as a file, a folder, or a module named
 * without its extension; a doc's markdown link leads to a file. A pattern (`<`, `*`, `{` or `$`
 * where the path goes on) is no path. Strings in code are left to the compiler and the tests that
 * use them; migrations are the history of the schema and keep the names of their day.
 */
const ROOT = path.resolve(__dirname, "../..");
const CODE = ["app", "components", "lib", "tests", "bench", "scripts", "proxy.ts", "instrumentation.ts"];
const SKIPPED = ["lib/db/generated/", "lib/geocoding/generated/"];
const CODE_FILE = /\.(?:[cm]?[jt]s|tsx)$/;

/** OpenAPI's document sections, which read like paths of components/. */
const NOT_PATHS = new Set(["components/schemas", "components/securitySchemes", "components/responses", "components/parameters"]);

const PATH = /(?<![\w./@#-])(?:lib|components|app|tests|prisma|bench|docs|scripts)\/[\w.\-/[\]()@]*/g;

/** The project paths a text names: each with its line, trailing punctuation and patterns left out. */
function namedPaths(text: string): { path: string; line: number }[] {
  const found: { path: string; line: number }[] = [];
  for (const match of text.matchAll(PATH)) {
    if (/[<*{$]/.test(text.charAt(match.index + match[0].length))) continue;
    let named = match[0].replace(/[.,:;]+$/, "");
    while (named.endsWith(")") && named.split("(").length < named.split(")").length) named = named.slice(0, -1).replace(/[.,:;]+$/, "");
    if (named.endsWith("/")) named = named.slice(0, -1);
    if (NOT_PATHS.has(named)) continue;
    found.push({ path: named, line: text.slice(0, match.index).split("\n").length });
  }
  return found;
}

/** Whether a named path exists: as it is, or as a module or doc named without its extension. */
function exists(named: string): boolean {
  return ["", ".ts", ".tsx", ".md"].some((extension) => existsSync(path.join(ROOT, named + extension)));
}

/**
 * The comments of a TypeScript or JavaScript source, as text of the file's length with everything
 * else blank (newlines kept, so a match's line is the file's line). The parser gives the nodes;
 * between them are only punctuation, keywords and trivia, which the scanner reads safely.
 */
function commentsOf(fileName: string, text: string): string {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const comments = new Map<number, number>();
  const scan = (from: number, to: number) => {
    if (from >= to) return;
    scanner.setText(text, from, to - from);
    for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
      if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) comments.set(scanner.getTokenStart(), scanner.getTokenEnd());
    }
  };
  const visit = (node: ts.Node): void => {
    let at = node.pos;
    let leaf = true;
    ts.forEachChild(node, (child) => {
      leaf = false;
      scan(at, child.pos);
      visit(child);
      at = child.end;
    });
    if (!leaf) scan(at, node.end);
    // JSX text holds no comments; a literal's own text may look like one: only its leading trivia is read.
    else if (ts.isJsxText(node)) return;
    else if (node.kind >= ts.SyntaxKind.FirstLiteralToken && node.kind <= ts.SyntaxKind.LastTemplateToken) scan(node.pos, node.getStart(source));
    else scan(node.pos, node.end);
  };
  visit(source);
  const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\n]/g, " ");
  let kept = "";
  for (const [start, end] of [...comments].sort(([a], [b]) => a - b)) kept += blank(kept.length, start) + text.slice(start, end);
  return kept + blank(kept.length, text.length);
}

/** The comments of an SQL file (`-- ...` to the end of the line), lines kept. */
function sqlCommentsOf(text: string): string {
  return text
    .split("\n")
    .map((line) => (line.includes("--") ? line.slice(line.indexOf("--")) : ""))
    .join("\n");
}

function filesUnder(relative: string, wanted: RegExp): string[] {
  const absolute = path.join(ROOT, relative);
  if (!existsSync(absolute)) return [];
  if (statSync(absolute).isFile()) return wanted.test(relative) ? [relative] : [];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    const child = path.posix.join(relative, entry.name);
    if (SKIPPED.some((skipped) => `${child}/`.startsWith(skipped))) return [];
    if (entry.isDirectory()) return filesUnder(child, wanted);
    return wanted.test(entry.name) ? [child] : [];
  });
}

describe("paths named in docs and comments", () => {
  it("reads the paths of a text and of a source's comments, leaving patterns, punctuation and strings out", () => {
    const text = [
      "See lib/calls/write/live.ts, and (lib/db/client.ts).",
      "`lib/<concern>/endpoints.ts`, tests/unit/*.test.ts, app/(dashboard)/page.tsx:",
      "#/components/schemas/X, components/schemas, https://example.com/lib/x.ts, @/lib/y",
    ].join("\n");
    expect(namedPaths(text)).toEqual([
      { path: "lib/calls/write/live.ts", line: 1 },
      { path: "lib/db/client.ts", line: 1 },
      { path: "app/(dashboard)/page.tsx", line: 2 },
    ]);
    const source = [
      'import { x } from "lib/imported";',
      "/** The door (lib/a.ts). */",
      'const y = "lib/string.ts"; // lib/b',
      "const z = <div>{/* lib/c.tsx */}lib/jsx-text // lib/d.ts</div>;",
      "const t = `${y} // lib/template.ts ${z}`; const r = /\\/\\/ lib\\/regex/; f(/* lib/e */);",
      "/* lib/end */",
    ].join("\n");
    expect(namedPaths(commentsOf("x.tsx", source))).toEqual([
      { path: "lib/a.ts", line: 2 },
      { path: "lib/b", line: 3 },
      { path: "lib/c.tsx", line: 4 },
      { path: "lib/e", line: 5 },
      { path: "lib/end", line: 6 },
    ]);
  });

  it("names only paths that exist", () => {
    const missingIn = (file: string, text: string) =>
      namedPaths(text)
        .filter((named) => !exists(named.path))
        .map((named) => `${file}:${named.line}: ${named.path}`);
    const docs = [...readdirSync(path.join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`), "README.md"];
    const code = CODE.flatMap((relative) => filesUnder(relative, CODE_FILE));
    const sql = filesUnder("prisma/functions", /\.sql$/);
    expect(code.length).toBeGreaterThan(500);
    const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
    // A markdown link to a file of the project, relative to the doc.
    const brokenLinks = (file: string) =>
      [...read(file).matchAll(/\]\((?!https?:|mailto:|#)([^)#\s]+)/g)]
        .filter((link) => !existsSync(path.join(ROOT, path.dirname(file), link[1])))
        .map((link) => `${file}: link ${link[1]}`);
    const missing = [
      ...docs.flatMap((file) => [...missingIn(file, read(file)), ...brokenLinks(file)]),
      // Only a file whose text names a missing path anywhere is parsed, to see whether a comment does.
      ...code.flatMap((file) => (missingIn(file, read(file)).length === 0 ? [] : missingIn(file, commentsOf(file, read(file))))),
      ...sql.flatMap((file) => missingIn(file, sqlCommentsOf(read(file)))),
    ];
    expect(missing).toEqual([]);
  });
});
