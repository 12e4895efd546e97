import { describe, expect, it } from "vitest";
import { isOggOpus } from "./ogg-opus.js";
import { isRetryableStatus, redactKey } from "./provider-http.js";

describe("provider answers", () => {
  it("retries timeouts, throttles and server errors, not refusals", () => {
    expect([408, 409, 425, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 415, 422].some(isRetryableStatus)).toBe(false);
  });

  it("takes keys out of what a provider says: the key, masked keys, key-like tokens", () => {
    const key = "my-local-secret-value";
    expect(redactKey(`bad key ${key}!`, key)).toBe("bad key [redacted]!");
    expect(redactKey("Incorrect API key provided: sk-abc*********wxyz. You can find…", undefined)).toBe(
      "Incorrect API key provided: [redacted] You can find…",
    );
    expect(redactKey("invalid token gsk_0123456789abcdef", undefined)).toBe("invalid token [redacted]");
    expect(redactKey("x".repeat(400), undefined)).toHaveLength(301);
  });

  it("knows OGG/Opus by its magic bytes, not its name", () => {
    const page = Buffer.alloc(27 + 1 + 19);
    page.write("OggS", 0, "latin1");
    page.writeUInt8(1, 26);
    page.write("OpusHead", 28, "latin1");
    expect(isOggOpus(page)).toBe(true);
    const vorbis = Buffer.from(page);
    vorbis.write("\x01vorbis\0", 28, "latin1");
    expect(isOggOpus(vorbis)).toBe(false);
    expect(isOggOpus(Buffer.from("RIFF....WAVEfmt "))).toBe(false);
  });
});
