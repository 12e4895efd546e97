import { z } from "zod";
import type { ApiRoute } from "./api-route.js";
import { errorBody } from "./api-schemas.js";

type JsonSchema = Record<string, unknown>;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "OK",
  201: "Created",
  202: "Accepted: queued",
  204: "No content",
  400: "Invalid request (SS_CONSOLE_INVALID_REQUEST)",
  401: "No session or token (SS_CONSOLE_UNAUTHENTICATED)",
  403: "CSRF token missing or wrong, or not allowed (SS_CONSOLE_CSRF, SS_CONSOLE_FORBIDDEN)",
  404: "Not found among what I may see (SS_CONSOLE_NOT_FOUND)",
  409: "Conflict (see the error code)",
  429: "Rate limited",
  502: "The Graph API did not answer",
  503: "Unavailable",
};

/**
 * Turns a schema into JSON Schema, lifting named shapes (`.meta({ id })`)
 * into `components.schemas` so each is described once.
 */
function schemaOf(
  schema: z.ZodType,
  io: "input" | "output",
  components: Record<string, JsonSchema>,
): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const { $schema: _schema, $defs, ...rest } = json;
  for (const [id, definition] of Object.entries($defs ?? {}))
    components[id] = relink(definition) as JsonSchema;
  return relink(rest) as JsonSchema;
}

function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([key, inner]) =>
    key === "$ref" && typeof inner === "string"
      ? [key, inner.replace("#/$defs/", "#/components/schemas/")]
      : [key, relink(inner)],
  );
  return Object.fromEntries(entries);
}

/** `/api/v1/conversations/:key` → `/api/v1/conversations/{key}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, "{$1}");
}

/** The console API's OpenAPI 3.1 document, generated from the route table itself. */
export function openApiDocument(routes: readonly ApiRoute[], version: string) {
  const components: Record<string, JsonSchema> = {};
  const errorRef = { $ref: "#/components/schemas/Error" };
  schemaOf(errorBody, "output", components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const pathParameters = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => ({
      name: match[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const querySchema = route.query === undefined ? undefined : schemaOf(route.query, "input", components);
    const queryProperties = (querySchema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((querySchema?.required ?? []) as string[]);
    const queryParameters = Object.entries(queryProperties).map(([name, schema]) => ({
      name,
      in: "query",
      required: required.has(name),
      schema,
      ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    }));
    const status = route.status ?? 200;
    const success =
      route.produces !== undefined
        ? { description: STATUS_TEXT[status], content: { [route.produces]: { schema: { type: "string" } } } }
        : route.response === undefined
          ? { description: STATUS_TEXT[status] }
          : {
              description: STATUS_TEXT[status],
              content: { "application/json": { schema: schemaOf(route.response, "output", components) } },
            };
    const failures = [400, ...(route.auth === "operator" ? [401, 403] : []), ...(route.errors ?? [])];
    const responses: Record<string, unknown> = { [String(status)]: success };
    for (const code of failures) {
      responses[String(code)] = {
        description: STATUS_TEXT[code],
        content: { "application/json": { schema: errorRef } },
      };
    }
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[route.method.toLowerCase()] = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
      ...(route.auth === "operator" ? {} : { security: [] }),
      parameters: [...pathParameters, ...queryParameters],
      ...(route.body === undefined
        ? {}
        : {
            requestBody: {
              required: !route.body.safeParse(undefined).success,
              content: { "application/json": { schema: schemaOf(route.body, "input", components) } },
            },
          }),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "sharpsharp console API",
      version,
      description:
        "The operator console's API, for the console itself and for scripts. Log in with POST /api/v1/session " +
        "(a session cookie; send its CSRF token as x-csrf-token on every write) or send an API token as " +
        "`Authorization: Bearer sst_…`. Errors are `{ error: SS_…, message }`.",
    },
    components: {
      schemas: components,
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "ss_session" },
        apiToken: { type: "http", scheme: "bearer" },
      },
    },
    security: [{ session: [] }, { apiToken: [] }],
    paths,
  };
}
