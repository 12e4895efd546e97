import { createHash } from "node:crypto";
import type { OutboundReply } from "../queue/index.js";

/**
 * The reply's job id: a hash, since BullMQ job ids must not contain ':' and
 * turn ids may. The tenant is part of it, so two tenants' turn ids never collide.
 */
export function outboundJobId(reply: Pick<OutboundReply, "tenantId" | "turnId" | "part">): string {
  const digest = createHash("sha256")
    .update(`${reply.tenantId}\u0000${reply.turnId}\u0000${reply.part}`)
    .digest("base64url");
  return `out-${digest.slice(0, 32)}`;
}
