import { describe, expect, it } from "vitest";
import { checkMediaHostSuffixes, DEFAULT_MEDIA_HOST_SUFFIXES, hostMatchesSuffix } from "./media-hosts.js";

describe("media host suffixes", () => {
  const defaults = checkMediaHostSuffixes(DEFAULT_MEDIA_HOST_SUFFIXES);

  it("matches a suffix and its subdomains on a dot boundary only", () => {
    expect(hostMatchesSuffix("lookaside.fbsbx.com", defaults)).toBe(true);
    expect(hostMatchesSuffix("fbsbx.com", defaults)).toBe(true);
    expect(hostMatchesSuffix("LOOKASIDE.FBSBX.COM.", defaults)).toBe(true);
    expect(hostMatchesSuffix("mmg.whatsapp.net", defaults)).toBe(true);
    expect(hostMatchesSuffix("evilfbsbx.com", defaults)).toBe(false);
    expect(hostMatchesSuffix("fbsbx.com.evil.net", defaults)).toBe(false);
    expect(hostMatchesSuffix("notfacebook.com", defaults)).toBe(false);
    expect(hostMatchesSuffix("127.0.0.1", defaults)).toBe(false);
  });

  it("normalises suffixes and refuses anything that is not a host name", () => {
    expect(checkMediaHostSuffixes([".Example.COM", "cdn.test."])).toEqual(["example.com", "cdn.test"]);
    for (const bad of ["", "https://fbsbx.com", "*.fbsbx.com", "fbsbx.com/x", "a..b"]) {
      expect(() => checkMediaHostSuffixes([bad])).toThrow(TypeError);
    }
  });
});
