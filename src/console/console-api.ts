import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { SharpsharpError } from "../errors/index.js";
import type { Logger } from "../observability/index.js";
import {
  StoreInvalidPageError,
  StoreInvalidQueryError,
  StoreUnknownConversationError,
} from "../store/index.js";
import type { ApiRoute } from "./api-route.js";
import type { ConsoleDeps } from "./console-deps.js";
import { authenticate } from "./console-session.js";
import { ConsoleError, consoleErrorCatalog } from "./errors.js";
import { openApiDocument } from "./openapi.js";
import { actionRoutes } from "./routes/action-routes.js";
import { campaignRoutes } from "./routes/campaign-routes.js";
import { conversationRoutes } from "./routes/conversation-routes.js";
import { eventRoutes, type OpenStreams } from "./routes/event-routes.js";
import { operatorRoutes } from "./routes/operator-routes.js";
import { LOGIN_ATTEMPTS, LOGIN_WINDOW_MS, sessionRoutes } from "./routes/session-routes.js";
import { tenantRoutes } from "./routes/tenant-routes.js";

export interface ConsoleApiOptions {
  readonly deps: ConsoleDeps;
  readonly logger: Logger;
  /** The built front end (`dist/console`); absent or missing: `/` says how to build it. */
  readonly staticDir?: string | undefined;
  /** The package version, for the OpenAPI document. */
  readonly version: string;
}

/** Every route of the console API, in the order the OpenAPI document lists them. */
export function consoleRoutes(
  deps: ConsoleDeps,
  limitLogin: Parameters<typeof sessionRoutes>[1],
  streams: OpenStreams = new Set(),
): ApiRoute[] {
  return [
    ...sessionRoutes(deps, limitLogin),
    ...tenantRoutes(deps),
    ...conversationRoutes(deps),
    ...actionRoutes(deps),
    ...eventRoutes(deps, streams),
    ...operatorRoutes(deps),
    ...campaignRoutes(deps),
  ];
}

function invalid(error: z.ZodError): ConsoleError {
  const issue = error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "body" : issue.path.join(".");
  return new ConsoleError("invalidRequest", `${where}: ${issue?.message ?? "invalid"}`);
}

function parsed<T>(schema: z.ZodType<T> | undefined, value: unknown): T {
  if (schema === undefined) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(result.error);
  return result.data;
}

/**
 * The console on the admin listener: `/api/v1` (JSON, described at
 * `/api/v1/openapi.json`) and the built front end at `/`. Its own
 * encapsulated plugin, so its cookie, rate-limit and error handling touch
 * nothing else the admin listener serves.
 */
export async function registerConsole(app: FastifyInstance, options: ConsoleApiOptions): Promise<void> {
  const { deps, logger } = options;
  await app.register(async (scope) => {
    await scope.register(fastifyCookie);
    await scope.register(fastifyRateLimit, { global: false });
    const loginLimit = scope.createRateLimit({
      max: LOGIN_ATTEMPTS,
      timeWindow: LOGIN_WINDOW_MS,
      keyGenerator: (request: FastifyRequest) => {
        const email = (request.body as { email?: unknown } | undefined)?.email;
        return `${request.ip}|${typeof email === "string" ? email.trim().toLowerCase() : ""}`;
      },
    });
    const limitLogin = async (request: FastifyRequest) => {
      const verdict = await loginLimit(request);
      return verdict.isAllowed || !verdict.isExceeded ? undefined : verdict.ttlInSeconds;
    };
    const streams: OpenStreams = new Set();
    const routes = consoleRoutes(deps, limitLogin, streams);
    // Before the listener waits for its connections to end: an event stream would never end by itself.
    scope.addHook("preClose", async () => {
      for (const stream of streams) stream.end();
    });
    const document = openApiDocument(routes, options.version);

    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof ConsoleError) {
        if (error.code === consoleErrorCatalog.loginRateLimited.code) {
          reply.header("retry-after", String(error.details?.retryAfterSeconds ?? 60));
        }
        return reply
          .code(error.httpStatus ?? 400)
          .send({ error: error.code, message: error.message, ...(error.details ?? {}) });
      }
      // A cursor or query the store cannot read came from the client: its fault, not ours.
      if (error instanceof StoreInvalidPageError || error instanceof StoreInvalidQueryError) {
        return reply.code(400).send({ error: (error as SharpsharpError).code, message: error.message });
      }
      if (error instanceof StoreUnknownConversationError) {
        return reply
          .code(404)
          .send({ error: consoleErrorCatalog.notFound.code, message: "no such conversation" });
      }
      // Another capability's refusal that carries its own status (a campaign that cannot be made).
      if (error instanceof SharpsharpError && error.httpStatus !== undefined) {
        return reply.code(error.httpStatus).send({ error: error.code, message: error.message });
      }
      // Fastify's own refusals of a request (bad JSON, wrong content type, too large).
      if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
        return reply
          .code(error.statusCode)
          .send({ error: consoleErrorCatalog.invalidRequest.code, message: error.message });
      }
      logger.error({ err: error, url: request.url, method: request.method }, "console API request failed");
      return reply
        .code(500)
        .send({ error: "SS_CONSOLE_INTERNAL", message: "the console failed this request; see the log" });
    });

    scope.get("/api/v1/openapi.json", async () => document);

    for (const route of routes) {
      scope.route({
        method: route.method,
        url: route.path,
        ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
        handler: async (request, reply) => {
          const access = route.auth === "none" ? undefined : await authenticate(deps.session, request);
          if (route.auth === "operator" && access === undefined) {
            throw new ConsoleError("unauthenticated", "log in, or send Authorization: Bearer <API token>");
          }
          // The route's status is the default; a handler may answer another (200 for a create that found its key).
          reply.code(route.status ?? 200);
          const result = await route.handle({
            request,
            reply,
            access,
            query: parsed(route.query, request.query),
            body: parsed(route.body, request.body ?? undefined),
            params: request.params as Record<string, string>,
          });
          if (reply.sent) return reply;
          reply.header("cache-control", "no-store");
          if (route.response === undefined) return reply.send();
          // Parsed on the way out too: a field the document does not name never leaves.
          return reply.send(route.response.parse(result));
        },
      });
    }

    scope.all("/api/*", async () => {
      throw new ConsoleError("notFound", "no such console API route (see /api/v1/openapi.json)");
    });

    const staticDir = options.staticDir;
    if (staticDir !== undefined && existsSync(join(staticDir, "index.html"))) {
      await scope.register(fastifyStatic, {
        root: staticDir,
        prefix: "/",
        index: ["index.html"],
        // Hashed assets never change; the page itself is asked for again each time.
        setHeaders: (response, path) =>
          response.header(
            "cache-control",
            path.endsWith("index.html") ? "no-cache" : "public, max-age=31536000, immutable",
          ),
      });
    } else {
      scope.get("/", async (_request, reply) =>
        reply
          .code(503)
          .type("text/plain; charset=utf-8")
          .send("The console's front end is not built: run `npm run build` (npm ci builds it too).\n"),
      );
    }
  });
}
