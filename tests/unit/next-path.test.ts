import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/access/next-path";

/**
 * `next` comes from a link anyone can craft; the sign-in page sends the browser there, and the
 * provider's callback too. Whatever is accepted must stay on this site as a browser resolves it.
 */
const SITE = "https://dispatch.example.org";
const staysHere = (path: string) => new URL(path, SITE).origin === SITE && path.startsWith("/");

/** Pieces attackers combine: separators a browser folds into "/", controls it strips, encodings, hosts. */
const piece = fc.constantFrom(
  "/", "//", "\\", "\\\\", "\t", "\n", "\r", "\u0000", " ", "%09", "%0a", "%2F", "%2f", "%5C", "%252F", ".", "..", "./", "../",
  "evil.example", "@", ":", "http:", "https:", "javascript:", "?", "#", "%", "\u3002", "\uff0f", "calls", "exercises/x",
);

describe("the return path after sign-in (next)", () => {
  it("keeps paths on this site as they are", () => {
    expect(safeNextPath("/")).toBe("/");
    expect(safeNextPath("/exercises/x?tab=debrief#calls")).toBe("/exercises/x?tab=debrief#calls");
    expect(safeNextPath(["/admin", "/other"])).toBe("/admin");
    expect(safeNextPath(undefined)).toBe("/");
  });

  it("refuses what a browser would resolve to another site", () => {
    for (const attempt of ["/\t/evil.example/", "/\n/evil.example", "//evil.example", "/\\evil.example", "\\\\evil.example", "https://evil.example/", "/.//evil.example", " //evil.example", "javascript:alert(1)"]) {
      expect(staysHere(safeNextPath(attempt)), JSON.stringify(attempt)).toBe(true);
    }
    expect(safeNextPath("/\t/evil.example/")).toBe("/");
  });

  it("never accepts a value that resolves to another origin (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(piece, { maxLength: 8 }).map((parts) => parts.join("")), fc.string(), fc.string({ unit: "binary" })), (next) => {
        const accepted = safeNextPath(next);
        expect(staysHere(accepted)).toBe(true);
        // Read again (a page that passes it on, a redirect's Location) it still stays.
        expect(safeNextPath(accepted)).toBe(accepted);
      }),
      { numRuns: 5000 },
    );
  });
});
