import { describe, expect, it } from "vitest";
import { bearerMatches } from "./bearer-token.js";

const TOKEN = "0123456789abcdef-admin";

describe("bearerMatches", () => {
  it("accepts the token after the Bearer scheme, in any case", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`BEARER  ${TOKEN} `, TOKEN)).toBe(true);
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["the token alone", TOKEN],
    ["another scheme", `Basic ${TOKEN}`],
    ["a prefix of the token", `Bearer ${TOKEN.slice(0, -1)}`],
    ["the token and more", `Bearer ${TOKEN}x`],
    ["two tokens", `Bearer ${TOKEN} ${TOKEN}`],
    ["the scheme alone", "Bearer "],
  ])("refuses %s", (_case, header) => {
    expect(bearerMatches(header, TOKEN)).toBe(false);
  });
});
