import { describe, expect, it } from "vitest";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords.js";

describe("operator passwords", () => {
  it("hashes with scrypt at N=2^15, r=8 (memory-hard), salted, and verifies only the same password", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("correct horse battery", "md5$abc")).toBe(false);
  });

  it("refuses short passwords with a reason", () => {
    expect(passwordProblem("short")).toMatch(/at least 10/);
    expect(passwordProblem("long enough pass")).toBeUndefined();
  });
});
