import { describe, expect, it } from "vitest";
import { createEgressPolicy, parseNetwork } from "./egress-policy.js";

const strict = createEgressPolicy([]);
const rangeOf = (address: string, policy = strict) => {
  const verdict = policy.check(address);
  return verdict.allowed ? "allowed" : verdict.range;
};

describe("the egress policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["169.254.10.1", "link_local"],
    ["fe80::1", "link_local"],
    ["febf::1", "link_local"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["100.127.255.254", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["169.254.169.254", "metadata"],
    ["169.254.170.2", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["100.100.100.200", "metadata"],
  ])("refuses %s (%s)", (address, range) => {
    expect(rangeOf(address)).toBe(range);
  });

  it("judges an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(rangeOf("::ffff:127.0.0.1")).toBe("loopback");
    expect(rangeOf("::ffff:7f00:1")).toBe("loopback");
    expect(rangeOf("::ffff:10.0.0.1")).toBe("private");
    expect(rangeOf("::ffff:169.254.169.254")).toBe("metadata");
    expect(rangeOf("::ffff:0.0.0.0")).toBe("unspecified");
    expect(rangeOf("::ffff:8.8.8.8")).toBe("allowed");
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "2001:4860:4860::8888",
    "fec0::1",
  ])("allows the public address %s", (address) => {
    expect(rangeOf(address)).toBe("allowed");
  });

  it("refuses what is not an IP address", () => {
    expect(rangeOf("localhost")).toBe("invalid");
    expect(rangeOf("")).toBe("invalid");
  });

  it("allows what allowNetworks covers, and only that", () => {
    const policy = createEgressPolicy(["127.0.0.1", "10.20.0.0/16", "fd00:1::/32"]);
    expect(rangeOf("127.0.0.1", policy)).toBe("allowed");
    expect(rangeOf("::ffff:127.0.0.1", policy)).toBe("allowed");
    expect(rangeOf("127.0.0.2", policy)).toBe("loopback");
    expect(rangeOf("::1", policy)).toBe("loopback");
    expect(rangeOf("10.20.255.1", policy)).toBe("allowed");
    expect(rangeOf("10.21.0.1", policy)).toBe("private");
    expect(rangeOf("fd00:1:ffff::1", policy)).toBe("allowed");
    expect(rangeOf("fd00:2::1", policy)).toBe("private");
    expect(rangeOf("8.8.8.8", policy)).toBe("allowed");
  });

  it("opens a metadata address only when it is listed by itself, never through a wider range", () => {
    const wide = createEgressPolicy(["169.254.0.0/16", "0.0.0.0/0", "::/0"]);
    expect(rangeOf("169.254.169.254", wide)).toBe("metadata");
    expect(rangeOf("fd00:ec2::254", wide)).toBe("metadata");
    expect(rangeOf("169.254.1.1", wide)).toBe("allowed");
    expect(rangeOf("127.0.0.1", wide)).toBe("allowed");
    const listed = createEgressPolicy(["169.254.169.254/32", "fd00:ec2::254"]);
    expect(rangeOf("169.254.169.254", listed)).toBe("allowed");
    expect(rangeOf("fd00:ec2::254", listed)).toBe("allowed");
    expect(rangeOf("169.254.170.2", listed)).toBe("metadata");
  });
});

describe("parseNetwork", () => {
  it("reads addresses and CIDRs of both families", () => {
    expect(parseNetwork("127.0.0.1")).toEqual({ network: "127.0.0.1", prefix: 32, family: "ipv4" });
    expect(parseNetwork(" 10.0.0.0/8 ")).toEqual({ network: "10.0.0.0", prefix: 8, family: "ipv4" });
    expect(parseNetwork("::1")).toEqual({ network: "::1", prefix: 128, family: "ipv6" });
    expect(parseNetwork("fd00::/8")).toEqual({ network: "fd00::", prefix: 8, family: "ipv6" });
  });

  it.each([
    ["localhost", "is not an IP address or CIDR"],
    ["10.0.0.0/33", "the prefix length must be 0–32"],
    ["fd00::/129", "the prefix length must be 0–128"],
    ["10.0.0.0/", "the prefix length must be 0–32"],
    ["10.0.0.0/8/8", "is not an IP address or CIDR"],
    ["10.0.0.0/-1", "the prefix length must be 0–32"],
    ["10.0.0.0/0x8", "the prefix length must be 0–32"],
    ["", "is not an IP address or CIDR"],
  ])("refuses %j", (entry, problem) => {
    expect(parseNetwork(entry)).toEqual({ problem: expect.stringContaining(problem) });
  });
});
