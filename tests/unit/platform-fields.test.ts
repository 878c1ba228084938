import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../support/import-graph";

/**
 * What is only one voice platform's stays in its folder (docs/webhook.md, "A fourth platform"):
 * no file of the service outside lib/voice-platforms/<platform>/ names a field of that platform's
 * wire format, in code (a property, an identifier, a string); a comment may. The fields listed
 * are each only one platform's; tests, the bench and the scripts build payloads and may name them.
 */

const ROOT = path.resolve(__dirname, "../..");
const SCANNED = ["app", "components", "lib", "proxy.ts", "instrumentation.ts"];
const SKIPPED = ["lib/db/generated/", "lib/geocoding/generated/"];

const WIRE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  vapi: ["toolCallList", "toolCalls", "toolWithToolCallList", "endedReason", "structuredData", "assistantId"],
  retell: ["call_analysis", "retell_llm_dynamic_variables", "disconnection_reason", "custom_analysis_data", "transcript_object"],
  elevenlabs: ["data_collection_results", "dynamic_variables", "conversation_initiation_client_data", "transcript_summary", "system__caller_id", "full_audio"],
};

/** The identifiers and string literals' texts of a source file (comments left out), with TypeScript's scanner. */
function namesIn(fileName: string, text: string): Set<string> {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, fileName.endsWith(".tsx") ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, text);
  const names = new Set<string>();
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.Identifier || token === ts.SyntaxKind.PrivateIdentifier) names.add(scanner.getTokenValue());
    else if (token === ts.SyntaxKind.StringLiteral || token === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      for (const word of scanner.getTokenValue().split(/[^\w]+/)) names.add(word);
    }
  }
  return names;
}

/** Each naming of a platform's field by a file outside that platform's folder. */
function misplaced(files: readonly { file: string; names: Set<string> }[]): string[] {
  return files.flatMap(({ file, names }) =>
    Object.entries(WIRE_FIELDS).flatMap(([platform, fields]) =>
      file.startsWith(`lib/voice-platforms/${platform}/`) ? [] : fields.filter((field) => names.has(field)).map((field) => `${file}: ${platform}'s ${field}`),
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
