import { randomBytes } from "node:crypto";

/**
 * A new campaign's id: 16 random base64url characters, the first a letter or a digit. One in 32
 * base64url strings starts with "-" or "_", and an id starting with "-" is read as an option by the
 * `sharpsharp campaign` commands that take it (`start --tenant T -n0Yb…` fails with "Unknown option").
 */
export function newCampaignId(): string {
  for (;;) {
    const id = randomBytes(12).toString("base64url");
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}
