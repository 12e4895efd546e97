import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Base64, sha256Matches } from "./sha256.js";

describe("sha256 of media", () => {
  const bytes = Buffer.from("receipt");
  const digest = createHash("sha256").update(bytes).digest();

  it("reads the webhook's base64 and a recorded lookup's hex alike", () => {
    const actual = sha256Base64(bytes);
    expect(actual).toBe(digest.toString("base64"));
    expect(sha256Matches(digest.toString("base64"), actual)).toBe(true);
    expect(sha256Matches(digest.toString("base64url"), actual)).toBe(true);
    expect(sha256Matches(digest.toString("hex").toUpperCase(), actual)).toBe(true);
    expect(sha256Matches(sha256Base64(Buffer.from("other")), actual)).toBe(false);
    expect(sha256Matches("", actual)).toBe(false);
    expect(sha256Matches("not base64 at all!", actual)).toBe(false);
  });
});
