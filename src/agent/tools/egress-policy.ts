import { BlockList, isIP } from "node:net";

/** Why an address is refused; one bounded label value each. */
export type RefusedRange = "loopback" | "link_local" | "private" | "unspecified" | "metadata" | "invalid";

type Family = "ipv4" | "ipv6";

interface Subnet {
  readonly network: string;
  readonly prefix: number;
  readonly family: Family;
}

// What a tenant's tool must never reach by accident: this machine, its network, the cloud's control plane.
const REFUSED: readonly (Subnet & { readonly range: Exclude<RefusedRange, "metadata" | "invalid"> })[] = [
  { range: "unspecified", network: "0.0.0.0", prefix: 8, family: "ipv4" },
  { range: "loopback", network: "127.0.0.0", prefix: 8, family: "ipv4" },
  { range: "link_local", network: "169.254.0.0", prefix: 16, family: "ipv4" },
  { range: "private", network: "10.0.0.0", prefix: 8, family: "ipv4" },
  { range: "private", network: "172.16.0.0", prefix: 12, family: "ipv4" },
  { range: "private", network: "192.168.0.0", prefix: 16, family: "ipv4" },
  { range: "private", network: "100.64.0.0", prefix: 10, family: "ipv4" },
  { range: "unspecified", network: "::", prefix: 128, family: "ipv6" },
  { range: "loopback", network: "::1", prefix: 128, family: "ipv6" },
  { range: "link_local", network: "fe80::", prefix: 10, family: "ipv6" },
  { range: "private", network: "fc00::", prefix: 7, family: "ipv6" },
];

/**
 * Instance metadata services (AWS, GCP, Azure, ECS task, Alibaba): they hand out
 * the machine's cloud credentials, so a wide allowance never covers them.
 */
export const METADATA_ADDRESSES = ["169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200"];

const RANGE_WORDS: Readonly<Record<RefusedRange, string>> = {
  loopback: "a loopback address",
  link_local: "a link-local address",
  private: "a private-network address",
  unspecified: "an unspecified address",
  metadata: "a cloud metadata address",
  invalid: "not an IP address",
};

/** "a loopback address", for messages. */
export const describeRange = (range: RefusedRange): string => RANGE_WORDS[range];

const familyOf = (address: string): Family | undefined => {
  const version = isIP(address);
  return version === 4 ? "ipv4" : version === 6 ? "ipv6" : undefined;
};

/** An `allowNetworks` entry (`10.0.0.0/8`, `127.0.0.1`, `fd00::/8`) as a subnet, or why it is not one. */
export function parseNetwork(entry: string): Subnet | { readonly problem: string } {
  const [network = "", prefixText, ...rest] = entry.trim().split("/");
  const family = familyOf(network);
  if (family === undefined || rest.length > 0) {
    return { problem: `"${entry}" is not an IP address or CIDR (10.0.0.0/8, 127.0.0.1, fd00::/8)` };
  }
  const bits = family === "ipv4" ? 32 : 128;
  if (prefixText === undefined) return { network, prefix: bits, family };
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= bits)) {
    return { problem: `"${entry}": the prefix length must be 0–${bits}` };
  }
  return { network, prefix, family };
}

function blockListOf(subnets: readonly Subnet[]): BlockList {
  const list = new BlockList();
  for (const { network, prefix, family } of subnets) list.addSubnet(network, prefix, family);
  return list;
}

export type EgressVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly range: RefusedRange };

export interface EgressPolicy {
  /** Whether a tool may connect to this IP address (IPv4-mapped IPv6 counts as its IPv4 address). */
  check(address: string): EgressVerdict;
}

const ALLOWED: EgressVerdict = { allowed: true };
const refusedLists = REFUSED.map((subnet) => ({ range: subnet.range, list: blockListOf([subnet]) }));
const anyRefused = blockListOf(REFUSED);
const metadata = blockListOf(
  METADATA_ADDRESSES.map((address) => {
    const family = familyOf(address) as Family;
    return { network: address, prefix: family === "ipv4" ? 32 : 128, family };
  }),
);

/**
 * The policy of one tool: public addresses are allowed; the refused ranges
 * above only where `allowNetworks` covers them; a metadata address only when
 * `allowNetworks` lists that address itself. Entries must already be valid
 * (`parseNetwork`); an invalid one allows nothing.
 */
export function createEgressPolicy(allowNetworks: readonly string[]): EgressPolicy {
  const subnets = allowNetworks.map(parseNetwork).filter((parsed): parsed is Subnet => "network" in parsed);
  const allowed = blockListOf(subnets);
  const exact = blockListOf(subnets.filter((s) => s.prefix === (s.family === "ipv4" ? 32 : 128)));
  return {
    check(address) {
      const family = familyOf(address);
      if (family === undefined) return { allowed: false, range: "invalid" };
      if (metadata.check(address, family)) {
        return exact.check(address, family) ? ALLOWED : { allowed: false, range: "metadata" };
      }
      if (!anyRefused.check(address, family) || allowed.check(address, family)) return ALLOWED;
      const range = refusedLists.find(({ list }) => list.check(address, family))?.range ?? "private";
      return { allowed: false, range };
    },
  };
}
