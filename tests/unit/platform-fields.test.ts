import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PLATFORMS } from "@/lib/vocabulary";
import { filesUnder } from "../support/import-graph";

/**
 * What is only one voice platform's stays in its folder (docs/webhook.md, "A fourth platform"):
 * no file of the service outside lib/voice-platforms/<platform>/ names a field of that platform's
 * wire format, in code (a property, an identifier, a string); a comment may. The fields listed
 * are each only one platform's; tests, the bench and the scripts build payloads and may name them.
 * Nor does any file but its registration name the platform itself in code: a platform added after
 * ElevenLabs (whose historical paths and default are the service's) is its folder and its registration.
 */

const ROOT = path.resolve(__dirname, "../..");
const SCANNED = ["app", "components", "lib", "proxy.ts", "instrumentation.ts"];
const SKIPPED = ["lib/db/generated/", "lib/geocoding/generated/"];

const WIRE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  vapi: ["toolCallList", "toolCalls", "toolWithToolCallList", "endedReason", "structuredData", "assistantId"],
  retell: ["call_analysis", "retell_llm_dynamic_variables", "disconnection_reason", "custom_analysis_data", "transcript_object"],
  elevenlabs: ["data_collection_results", "dynamic_variables", "conversation_initiation_client_data", "transcript_summary", "system__caller_id", "full_audio"],
};

/**
 * The identifiers of a source file and the words of its strings, apart (comments left out), from
 * TypeScript's syntax tree: a scanner alone loses its place after a template's `${…}` or a regular
 * expression, and reads what follows as code.
 */
function identifiersAndWords(fileName: string, text: string): { identifiers: Set<string>; words: Set<string> } {
  const identifiers = new Set<string>();
  const words = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) identifiers.add(node.text);
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) for (const word of node.text.split(/[^\w]+/)) words.add(word);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS));
  return { identifiers, words };
}

/** The identifiers and string literals' words of a source file together (comments left out). */
function namesIn(fileName: string, text: string): Set<string> {
  const { identifiers, words } = identifiersAndWords(fileName, text);
  return new Set([...identifiers, ...words]);
}

/** Each naming of a platform's field by a file outside that platform's folder. */
function misplaced(files: readonly { file: string; names: Set<string> }[]): string[] {
  return files.flatMap(({ file, names }) =>
    Object.entries(WIRE_FIELDS).flatMap(([platform, fields]) =>
      file.startsWith(`lib/voice-platforms/${platform}/`) ? [] : fields.filter((field) => names.has(field)).map((field) => `${file}: ${platform}'s ${field}`),
    ),
  );
}

/** A platform's registration (docs/webhook.md, "A fourth platform"): the files besides its folder that name it. */
const REGISTRATION = ["lib/vocabulary.ts", "lib/voice-platforms/adapters.ts", "lib/voice-platforms/endpoints.ts", "lib/config.ts"];

/**
 * The one naming left outside a registration: the dashboard offers a transfer on Vapi's calls only,
 * for a call record does not say whether its platform's live control can transfer (its
 * control.ts's `transferRefusal`). A fourth platform that can transfer is named there too.
 */
const NAMED_ELSEWHERE = ["components/console/LiveCallControls.tsx: vapi"];

/**
 * Each naming of a platform in code by a file outside its folder and its registration: an
 * identifier made with its name in any case (`vapiWebhook`, `VAPI_WEBHOOK_SECRET`), or a string
 * word holding it in lower case (`"vapi"`, a route's name `"vapiWebhook"`). Prose in a string (an
 * OpenAPI description's "Vapi") is no code another platform would need changed.
 */
function namedOutside(files: readonly { file: string; identifiers: Set<string>; words: Set<string> }[], platforms: readonly string[]): string[] {
  return files.flatMap(({ file, identifiers, words }) =>
    platforms.flatMap((platform) =>
      file.startsWith(`lib/voice-platforms/${platform}/`) || REGISTRATION.includes(file)
        ? []
        : [
            ...[...identifiers].filter((name) => name.toLowerCase().includes(platform)),
            ...[...words].filter((word) => word.includes(platform)),
          ].map((name) => `${file}: ${name}`),
    ),
  );
}

describe("a platform's wire fields", () => {
  it("reads names in code, not in comments", () => {
    const source = ['// toolCallList in a comment', "/* call_analysis */", "const a = message.toolCalls;", 'const b = root["dynamic_variables"];', "const c = `x.endedReason`;"].join("\n");
    const names = namesIn("x.ts", source);
    expect(["toolCalls", "dynamic_variables", "endedReason"].every((name) => names.has(name))).toBe(true);
    expect(names.has("toolCallList") || names.has("call_analysis")).toBe(false);
  });

  it("finds a field named outside its platform's folder, not inside it", () => {
    const names = new Set(["call_analysis"]);
    expect(misplaced([{ file: "lib/intake/x.ts", names }, { file: "lib/voice-platforms/retell/adapter.ts", names }, { file: "lib/voice-platforms/vapi/adapter.ts", names }]))
      .toEqual(["lib/intake/x.ts: retell's call_analysis", "lib/voice-platforms/vapi/adapter.ts: retell's call_analysis"]);
  });

  it("are named only inside that platform's folder of lib/voice-platforms", () => {
    const files = SCANNED.flatMap((relative) => filesUnder(ROOT, relative, SKIPPED)).map((file) => ({
      file,
      names: namesIn(file, readFileSync(path.join(ROOT, file), "utf8")),
    }));
    // Every field is named somewhere: a field no code reads any more is dropped from the list.
    for (const [platform, fields] of Object.entries(WIRE_FIELDS)) {
      for (const field of fields) expect(files.some(({ file, names }) => file.startsWith(`lib/voice-platforms/${platform}/`) && names.has(field)), field).toBe(true);
    }
    expect(misplaced(files)).toEqual([]);
  });
});

describe("a platform's name", () => {
  it("finds a platform named in an identifier or a string's lower-case word, outside its folder and its registration", () => {
    const source = ['// vapi in a comment', 'const a = "Vapi sends it";', "const vapiWebhook = 1;", 'const b = route === "vapi";', "const c = VAPI_KEY;"].join("\n");
    const { identifiers, words } = identifiersAndWords("x.ts", source);
    expect(namedOutside([{ file: "lib/intake/x.ts", identifiers, words }, { file: "lib/voice-platforms/vapi/x.ts", identifiers, words }, { file: "lib/vocabulary.ts", identifiers, words }], ["vapi"]))
      .toEqual(["lib/intake/x.ts: vapiWebhook", "lib/intake/x.ts: VAPI_KEY", "lib/intake/x.ts: vapi"]);
  });

  it("is named in code only in its folder and its registration: another platform needs no change elsewhere", () => {
    const files = SCANNED.flatMap((relative) => filesUnder(ROOT, relative, SKIPPED)).map((file) => ({
      file,
      ...identifiersAndWords(file, readFileSync(path.join(ROOT, file), "utf8")),
    }));
    const platforms = PLATFORMS.filter((platform) => platform !== "elevenlabs");
    expect(platforms.length).toBeGreaterThan(1);
    // The scan reaches them: each is named in its folder and in its registration.
    for (const platform of platforms) {
      expect(files.some(({ file, identifiers }) => file.startsWith(`lib/voice-platforms/${platform}/`) && [...identifiers].some((name) => name.toLowerCase().includes(platform)))).toBe(true);
      expect(files.some(({ file, words, identifiers }) => file === "lib/voice-platforms/adapters.ts" && (words.has(platform) || identifiers.has(platform)))).toBe(true);
    }
    expect(namedOutside(files, platforms)).toEqual(NAMED_ELSEWHERE);
  });
});
