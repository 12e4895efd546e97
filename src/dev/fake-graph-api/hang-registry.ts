import type { Socket } from "node:net";
import type { FastifyReply } from "fastify";

/** Requests the fake chose never to answer. */
export interface HangRegistry {
  /** Takes the request away from Fastify and answers nothing until the client gives up. */
  hold(reply: FastifyReply): void;
  /** Connections held right now. */
  size(): number;
  /** Drops every held connection, so the server can close. */
  releaseAll(): void;
}

/** Held connections, dropped when their client gives up or when the server closes. */
export function createHangRegistry(): HangRegistry {
  const held = new Set<Socket>();
  return {
    hold(reply) {
      reply.hijack();
      const socket = reply.request.raw.socket;
      held.add(socket);
      socket.once("close", () => held.delete(socket));
    },
    size: () => held.size,
    releaseAll() {
      for (const socket of held) socket.destroy();
      held.clear();
    },
  };
}
