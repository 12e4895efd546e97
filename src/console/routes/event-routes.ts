import type { ServerResponse } from "node:http";
import { z } from "zod";
import { type ApiRoute, defineRoute } from "../api-route.js";
import type { ConsoleDeps } from "../console-deps.js";
import { ConsoleError } from "../errors.js";
import { type OperatorAccess, tenantsAsked } from "../operator-access.js";
import type { ConsoleEvent } from "../ports.js";

/** The streams a process holds open, ended at shutdown: a browser never lets go of one by itself. */
export type OpenStreams = Set<ServerResponse>;

const HEARTBEAT_MS = 15_000;
const FLUSH_MS = 100;
const MAX_BATCH_CHARS = 32 * 1024;
const MAX_BUFFERED_BYTES = 256 * 1024;

/** One event as SSE text, made once however many streams send it. */
const formattedEvents = new WeakMap<ConsoleEvent, string>();
function formatted(event: ConsoleEvent): string {
  let text = formattedEvents.get(event);
  if (text === undefined) {
    const { kind, ...data } = event;
    text = `event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`;
    formattedEvents.set(event, text);
  }
  return text;
}

/**
 * The live stream: server-sent events, one per change the operator may see
 * (`message`, `status`, `mode`, `note`, `turn`), a comment every 15 s so
 * proxies keep it open. Held outside Fastify's reply (hijacked) for as long
 * as the browser stays.
 */
export function eventRoutes(deps: ConsoleDeps, streams: OpenStreams): ApiRoute[] {
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
        // Events go out in batches: one write per stream per FLUSH_MS, not one per event, so a burst of
        // traffic with many consoles open costs the process a few writes, not thousands.
        let pending = "";
        let flushTimer: NodeJS.Timeout | undefined;
        const flush = () => {
          flushTimer = undefined;
          // A slow reader is skipped, not buffered without bound: it catches up at its next read.
          if (pending !== "" && raw.writableLength < MAX_BUFFERED_BYTES) raw.write(pending);
          pending = "";
        };
        const stop = await deps.events.subscribe((event) => {
          if (!tenantIds.has(event.tenantId)) return;
          pending += formatted(event);
          if (pending.length > MAX_BATCH_CHARS) flush();
          else flushTimer ??= setTimeout(flush, FLUSH_MS);
        });
        const heartbeat = setInterval(() => raw.write(": ping\n\n"), HEARTBEAT_MS);
        heartbeat.unref();
        const end = () => {
          clearInterval(heartbeat);
          if (flushTimer !== undefined) clearTimeout(flushTimer);
          stop();
          open -= 1;
          streams.delete(raw);
        };
        streams.add(raw);
        request.raw.once("close", end);
        return undefined;
      },
    }),
  ];
}
