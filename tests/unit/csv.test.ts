import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/calls/csv";

describe("CSV cells", () => {
  it.each([
    ['=HYPERLINK("http://example.com","x")', `"'=HYPERLINK(""http://example.com"",""x"")"`],
    ["+1", `"'+1"`],
    ["-2", `"'-2"`],
    ["@SUM(A1)", `"'@SUM(A1)"`],
    ["\tx", `"'\tx"`],
    ["\rx", `"'\rx"`],
  ])("neutralises a formula: %j becomes %s", (text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });

  it("quotes commas, quotes and line breaks, doubling the quotes", () => {
    expect(csvCell("12 Main St, Malibu")).toBe('"12 Main St, Malibu"');
    expect(csvCell('Caller said "help"')).toBe('"Caller said ""help"""');
    expect(csvCell("smoke\nthen fire")).toBe('"smoke\nthen fire"');
    expect(csvCell("a\r\nb")).toBe('"a\r\nb"');
  });

  it("drops NUL characters", () => {
    expect(csvCell("gas\0 leak")).toBe("gas leak");
    expect(csvCell("\0=1")).toBe(`"'=1"`);
  });

  it("leaves plain text, numbers and booleans as they are, and missing values empty", () => {
    expect(csvCell("Structure fire on Sunset Blvd")).toBe("Structure fire on Sunset Blvd");
    expect(csvCell("a - b = c")).toBe("a - b = c");
    expect(csvCell(-118.5)).toBe("-118.5");
    expect(csvCell(false)).toBe("false");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("")).toBe("");
  });

  it("ends each line with CRLF", () => {
    expect(csvLine(["a", 1, null, "x,y"])).toBe('a,1,,"x,y"\r\n');
  });
});
