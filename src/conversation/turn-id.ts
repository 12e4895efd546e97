import { createHash } from "node:crypto";

/**
 * A turn's identity: a hash of its sorted message ids. The same messages
 * always give the same id, so a turn that runs again (a retry after a crash
 * between queuing the reply and completing the inbox) queues no second copy.
 */
export function turnIdFor(wamids: readonly string[]): string {
  const digest = createHash("sha256")
    .update([...wamids].sort().join("\u0000"))
    .digest("base64url");
  return `turn-${digest.slice(0, 32)}`;
}
