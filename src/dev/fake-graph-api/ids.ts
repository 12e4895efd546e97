import { randomBytes } from "node:crypto";

/** Where the fake's identifiers come from; tests inject their own. */
export interface FakeGraphIds {
  /** A fresh, unique `wamid.` id for a message to `address` (a phone number or BSUID). */
  wamid(address: string): string;
  /** An `fbtrace_id` for an error body. */
  traceId(): string;
}

/**
 * Ids shaped like Meta's: a wamid is `wamid.` + base64 of a structure that
 * holds the recipient, so the same customer's wamids share a prefix. A
 * counter keeps them unique whatever the random bytes are.
 */
export function createDefaultIds(): FakeGraphIds {
  let counter = 0;
  return {
    wamid(address) {
      counter += 1;
      const unique =
        `${counter.toString(16).padStart(8, "0")}${randomBytes(6).toString("hex")}`.toUpperCase();
      const raw = Buffer.concat([
        Buffer.from([0x1c, 0x18, address.length & 0xff]),
        Buffer.from(address.replace(/^\+/, ""), "utf8"),
        Buffer.from([0x15, 0x02, 0x00, 0x11, 0x18, 0x12]),
        Buffer.from(unique, "utf8"),
        Buffer.from([0x00]),
      ]);
      return `wamid.${raw.toString("base64")}`;
    },
    traceId: () => randomBytes(17).toString("base64url").slice(0, 23),
  };
}
