import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * Lets the app close promptly: Node's closeIdleConnections() leaves open a
 * connection a client opened but never sent a request on (undici opens spare
 * ones), and Fastify's close then waits for the client's keep-alive timeout.
 * On close this drops every connection with no request in progress, and
 * asks clients of requests in progress to close after their answer.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  const open = new Set<Socket>();
  const busy = new Set<Socket>();
  let closing = false;

  app.server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => {
      open.delete(socket);
      busy.delete(socket);
    });
  });
  app.addHook("onRequest", async (request) => {
    busy.add(request.raw.socket);
  });
  app.addHook("onResponse", async (request) => {
    busy.delete(request.raw.socket);
    if (closing) request.raw.socket.destroySoon();
  });
  app.addHook("onSend", async (_request, reply, payload) => {
    if (closing) reply.header("connection", "close");
    return payload;
  });
  app.addHook("preClose", async () => {
    closing = true;
    for (const socket of open) if (!busy.has(socket)) socket.destroy();
  });
}
