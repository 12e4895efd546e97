import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { OperatorAccess } from "./operator-access.js";

export interface RouteContext<Q, B> {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** The authenticated operator; routes with `auth: "none"` get none. */
  readonly access: OperatorAccess | undefined;
  readonly query: Q;
  readonly body: B;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * One console API route: what the OpenAPI document says about it and what
 * runs. Bodies and queries are parsed with the schemas; the answer is
 * parsed with `response`, which drops any field the document does not name.
 */
export interface ApiRoute<Q = unknown, B = unknown, R = unknown> {
  readonly method: "GET" | "POST" | "DELETE";
  /** Fastify's form: `/api/v1/conversations/:key`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** `operator`: a session cookie (with CSRF on writes) or an API token. */
  readonly auth: "none" | "operator";
  readonly query?: z.ZodType<Q>;
  readonly body?: z.ZodType<B>;
  /** Absent for 204 (no content) and for the event stream. */
  readonly response?: z.ZodType<R>;
  /** Default 200. */
  readonly status?: number;
  /** Largest request body, bytes, when more than the app's default (an uploaded audience). */
  readonly bodyLimit?: number;
  /** The errors a client should expect besides 400/401/403 (documented as the Error shape). */
  readonly errors?: readonly number[];
  /** The OpenAPI content type when it is not JSON (the event stream). */
  readonly produces?: string;
  handle(context: RouteContext<Q, B>): Promise<R | undefined>;
}

/** Keeps each route's types checked against its schemas while the table holds them as one type. */
export function defineRoute<Q, B, R>(route: ApiRoute<Q, B, R>): ApiRoute {
  return route as unknown as ApiRoute;
}
