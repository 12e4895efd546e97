import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type HttpToolDefinition, parseTenantTools } from "../../src/agent/tools/index.js";

/** Where the tool server listens: what a tool that calls it must list in its `allowNetworks`. */
export const TOOL_SERVER_NETWORK = "127.0.0.1";

/** A request as the tool's server received it. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Answers a received request; default: 200 `{"ok":true}`. May also never answer. */
export type ToolServerHandler = (request: ReceivedRequest, response: ServerResponse) => void;

/** A tenant's tool API on 127.0.0.1 (node:http), recording what it receives. */
export interface ToolServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Connections still open on the server's side. */
  openSockets(): number;
  /** Of those, the ones that carried a request (undici may open a spare one, see the limits test). */
  openRequestSockets(): number;
  close(): Promise<void>;
}

export async function startToolServer(handler?: ToolServerHandler): Promise<ToolServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const requestSockets = new Set<Socket>();
  const server = createServer((incoming, response) => {
    requestSockets.add(incoming.socket);
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const received = {
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(received);
      if (handler !== undefined) handler(received, response);
      else response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      requestSockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    openSockets: () => sockets.size,
    openRequestSockets: () => requestSockets.size,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * One tool through `parseTenantTools` (so the defaults are the real ones); throws on any problem.
 * It may reach 127.0.0.1, where the tool server listens, unless `spec` says otherwise.
 */
export function defineTool(
  spec: Record<string, unknown>,
  secrets: Readonly<Record<string, string>> = {},
): HttpToolDefinition {
  const { tools, problems } = parseTenantTools(
    [
      {
        name: "get_order_status",
        description: "Status of the customer's orders.",
        allowNetworks: [TOOL_SERVER_NETWORK],
        ...spec,
      },
    ],
    (name) => secrets[name],
  );
  const [tool] = tools;
  if (tool === undefined || problems.length > 0) throw new Error(`bad test tool: ${problems.join("; ")}`);
  return tool;
}
