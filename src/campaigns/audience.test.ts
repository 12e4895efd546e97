import { describe, expect, it } from "vitest";
import { parseAudience, placeholderCount } from "./audience.js";
import { CampaignInvalidError } from "./errors.js";

describe("parseAudience", () => {
  it("reads CSV with wa_id, user_id, numbered parameters and time zones", () => {
    const csv = [
      "wa_id,user_id,1,2,timezone",
      '+234 801 234 5678,,Aisha,"₦15,000",',
      ",NG.13491208655302741918,Emeka,₦2k,Europe/London",
    ].join("\n");
    expect(parseAudience(csv, "csv", 2)).toEqual([
      { customerId: "2348012345678", kind: "to", params: ["Aisha", "₦15,000"] },
      {
        customerId: "NG.13491208655302741918",
        kind: "recipient",
        params: ["Emeka", "₦2k"],
        timezone: "Europe/London",
      },
    ]);
  });

  it("orders param columns by their number, not their place in the header", () => {
    const csv = "param2,phone,param1\nsecond,2348012345678,first\n";
    expect(parseAudience(csv, "csv")[0]?.params).toEqual(["first", "second"]);
  });

  it("reads a JSON array", () => {
    const json = JSON.stringify([{ wa_id: "2348012345678", params: ["Aisha"] }]);
    expect(parseAudience(json, "json", 1)).toEqual([
      { customerId: "2348012345678", kind: "to", params: ["Aisha"] },
    ]);
  });

  it("refuses the whole audience and names every bad row", () => {
    const csv = [
      "wa_id,user_id,1,timezone",
      "12345,,Aisha,", // too short
      ",,Bola,", // nobody
      "2348012345678,,,", // empty parameter
      "2348012345679,,Chidi,Mars/Base", // bad zone
      "2348012345670,,ok,",
    ].join("\n");
    try {
      parseAudience(csv, "csv", 1);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CampaignInvalidError);
      const problems = (error as CampaignInvalidError).problems;
      expect(problems).toEqual([
        'row 2: wa_id "12345" is not a full international number (7 to 15 digits)',
        "row 3: no wa_id or user_id",
        "row 4: parameter 1 is empty",
        'row 5: timezone "Mars/Base" is not an IANA time zone',
      ]);
    }
  });

  it("names a row with too few or too many fields among the other bad rows", () => {
    const csv = ["wa_id,1,2", "2348012345678,Aisha", "12,Bola,x", "2348012345679,Chidi,x,extra"].join("\n");
    expect(() => parseAudience(csv, "csv", 2)).toThrow(
      /row 2: 2 fields, the header has 3.*row 3: wa_id "12".*row 4: 4 fields, the header has 3/,
    );
  });

  it("checks the parameter count against the template and refuses multi-line parameters", () => {
    const json = JSON.stringify([
      { wa_id: "2348012345678", params: ["a", "b"] },
      { wa_id: "2348012345679", params: ["line\nbreak"] },
    ]);
    expect(() => parseAudience(json, "json", 1)).toThrow(
      /item 1: 2 parameters, the template takes 1.*item 2: parameter 1 has a new line/,
    );
  });

  it("refuses unreadable input and an empty audience with a clear message", () => {
    expect(() => parseAudience("{not json", "json")).toThrow(/the JSON cannot be read/);
    expect(() => parseAudience('{"a":1}', "json")).toThrow(/must be an array/);
    expect(() => parseAudience("wa_id\n", "csv")).toThrow(/has nobody in it/);
    expect(() => parseAudience('wa_id,1\n"unclosed,x\n', "csv")).toThrow(/the CSV cannot be read/);
  });

  it("counts a template's placeholders", () => {
    expect(placeholderCount("Hi {{1}}, your order {{2}} ships {{ 3 }}")).toBe(3);
    expect(placeholderCount("No placeholders")).toBe(0);
    expect(placeholderCount(undefined)).toBeUndefined();
  });
});
