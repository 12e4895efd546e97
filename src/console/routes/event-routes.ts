import { z } from "zod";
import { type ApiRoute, defineRoute } from "../api-route.js";
import type { ConsoleDeps } from "../console-deps.js";
import { ConsoleError } from "../errors.js";
import { type OperatorAccess, tenantsAsked } from "../operator-access.js";

const HEARTBEAT_MS = 15_000;

/**
 * The live stream: server-sent events, one per change the operator may see
 * (`message`, `status`, `mode`, `note`, `turn`), a comment every 15 s so
 * proxies keep it open. Held outside Fastify's reply (hijacked) for as long
 * as the browser stays.
 */
export function eventRoutes(deps: ConsoleDeps): ApiRoute[] {
  let open = 0;
  return [
    defineRoute({
      method: "GET",
      path: "/api/v1/events",
      summary: "Server-sent events: message, status, mode, note and turn changes of my tenants",
      tag: "events",
      auth: "operator",
      query: z.object({ tenant: z.string().optional() }),
      produces: "text/event-stream",
      errors: [503],
      async handle({ access, query, request, reply }) {
        const tenantIds = new Set(tenantsAsked(access as OperatorAccess, query.tenant));
        if (open >= deps.maxStreams) {
          throw new ConsoleError(
            "tooManyStreams",
            `this process serves at most ${deps.maxStreams} event streams`,
          );
        }
        open += 1;
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache, no-transform",
          connection: "keep-alive",
          "x-accel-buffering": "no",
        });
        raw.write(": live\n\n");
        const stop = await deps.events.subscribe((event) => {
          if (!tenantIds.has(event.tenantId)) return;
          const { kind, ...data } = event;
          // A slow reader is skipped, not buffered without bound: it catches up at its next read.
          if (raw.writableLength < 256 * 1024) raw.write(`event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`);
        });
        const heartbeat = setInterval(() => raw.write(": ping\n\n"), HEARTBEAT_MS);
        heartbeat.unref();
        const end = () => {
          clearInterval(heartbeat);
          stop();
          open -= 1;
        };
        request.raw.once("close", end);
        return undefined;
      },
    }),
  ];
}
