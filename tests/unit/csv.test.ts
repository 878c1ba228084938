import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/calls/csv";
import { parseCsv } from "@/tests/support/csv";

describe("CSV cells", () => {
  it.each([
    ['=HYPERLINK("http://example.com","x")', `"'=HYPERLINK(""http://example.com"",""x"")"`],
    ["+1", `"'+1"`],
    ["-2", `"'-2"`],
    ["@SUM(A1)", `"'@SUM(A1)"`],
    ["\tx", `"'\tx"`],
    ["\rx", `"'\rx"`],
    ["\nx", `"'\nx"`],
    [" =1+1", `"' =1+1"`],
    ["\t=1", `"'\t=1"`],
    ["\r\n@SUM(A1)", `"'\r\n@SUM(A1)"`],
    ["\u3000=1", `"'\u3000=1"`],
    ["＝1+1", `"'＝1+1"`],
    ["＋1", `"'＋1"`],
    ["－1", `"'－1"`],
    ["＠SUM(A1)", `"'＠SUM(A1)"`],
    ["  ＝HYPERLINK()", `"'  ＝HYPERLINK()"`],
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

describe("CSV injection (OWASP), as a property", () => {
  // What a spreadsheet may take for the start of a formula, after any leading whitespace.
  const trigger = fc.constantFrom("=", "+", "-", "@", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20");
  const whitespace = fc.array(fc.constantFrom(" ", "\t", "\r", "\n", "\u00A0", "\u3000"), { maxLength: 4 }).map((parts) => parts.join(""));
  const text = fc.string({ unit: "grapheme", maxLength: 40 }).filter((value) => !value.includes("\0"));

  it("a cell that could start a formula reads back as the text behind a leading quote", () => {
    fc.assert(
      fc.property(whitespace, trigger, text, (space, start, rest) => {
        const value = `${space}${start}${rest}`;
        expect(parseCsv(csvLine([value]))).toEqual([[`'${value}`]]);
      }),
    );
  });

  it("any text reads back as itself, or behind a quote exactly when it could start a formula", () => {
    fc.assert(
      fc.property(text, (value) => {
        const [[cell]] = parseCsv(csvLine([value]));
        const dangerous = /^[\t\r\n]|^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/.test(value);
        expect(cell).toBe(dangerous ? `'${value}` : value);
      }),
    );
  });
});
