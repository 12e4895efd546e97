import { describe, expect, it } from "vitest";
import { constantTimeEquals, isValidSignature, signatureFor } from "./signature.js";

describe("isValidSignature", () => {
  const body = Buffer.from('{"text":"\\u20a6 15k \\ud83d\\ude4f"}');
  const secret = "app-secret";

  it("accepts Meta's header for the exact bytes", () => {
    expect(isValidSignature(body, signatureFor(body, secret), secret)).toBe(true);
    expect(
      isValidSignature(body, signatureFor(body, secret).toUpperCase().replace("SHA256", "sha256"), secret),
    ).toBe(true);
  });

  it.each([
    ["missing", undefined],
    ["repeated", ["sha256=00", "sha256=00"]],
    ["without prefix", signatureFor(body, secret).slice("sha256=".length)],
    ["with the sha1 prefix", signatureFor(body, secret).replace("sha256=", "sha1=")],
    ["too short", signatureFor(body, secret).slice(0, -2)],
    ["too long", `${signatureFor(body, secret)}00`],
    ["not hex", `sha256=${"zz".repeat(32)}`],
    ["not hex in its last digit", `${signatureFor(body, secret).slice(0, -1)}g`],
    ["not hex in its first digit", `sha256=g${signatureFor(body, secret).slice(8)}`],
    ["from another secret", signatureFor(body, "other")],
  ])("rejects a header %s", (_label, header) => {
    expect(isValidSignature(body, header, secret)).toBe(false);
  });

  it("rejects a body changed by one byte", () => {
    const header = signatureFor(body, secret);
    const changed = Buffer.from(body);
    changed[3] = (changed[3] as number) ^ 1;
    expect(isValidSignature(changed, header, secret)).toBe(false);
  });
});

describe("constantTimeEquals", () => {
  it("compares strings of any length", () => {
    expect(constantTimeEquals("token", "token")).toBe(true);
    expect(constantTimeEquals("token", "token2")).toBe(false);
    expect(constantTimeEquals("", "x")).toBe(false);
  });
});
