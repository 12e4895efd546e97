import type { FastifyRequest } from "fastify";
import { type ApiRoute, defineRoute } from "../api-route.js";
import { loginRequest, sessionBody } from "../api-schemas.js";
import type { ConsoleDeps } from "../console-deps.js";
import { checkOrigin, logIn, logOut } from "../console-session.js";
import { ConsoleError } from "../errors.js";
import type { OperatorAccess } from "../operator-access.js";

/** Failed or not, at most this many logins per e-mail and address per window. */
const LOGIN_ATTEMPTS = 10;
const LOGIN_WINDOW_MS = 15 * 60_000;

export function sessionView(access: OperatorAccess) {
  const { operator } = access;
  return {
    operator: { id: operator.id, email: operator.email, name: operator.name, grants: [...operator.grants] },
    csrfToken: access.session?.csrfToken ?? "",
  };
}

/** Answers the seconds to wait when the request's login key (address and e-mail) is over its limit. */
export type LoginLimiter = (request: FastifyRequest) => Promise<number | undefined>;

export function sessionRoutes(deps: ConsoleDeps, limitLogin: LoginLimiter): ApiRoute[] {
  return [
    defineRoute({
      method: "POST",
      path: "/api/v1/session",
      summary: "Log in: sets an HTTP-only session cookie and answers the CSRF token for writes",
      tag: "session",
      auth: "none",
      body: loginRequest,
      response: sessionBody,
      errors: [429],
      async handle({ request, reply, body }) {
        checkOrigin(request);
        const retryAfter = await limitLogin(request);
        if (retryAfter !== undefined) {
          throw new ConsoleError("loginRateLimited", "too many login attempts; wait and try again", {
            retryAfterSeconds: retryAfter,
          });
        }
        return sessionView(await logIn(deps.session, reply, body.email, body.password));
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/session",
      summary: "The logged-in operator and the session's CSRF token",
      tag: "session",
      auth: "operator",
      response: sessionBody,
      async handle({ access }) {
        return sessionView(access as OperatorAccess);
      },
    }),
    defineRoute({
      method: "DELETE",
      path: "/api/v1/session",
      summary: "Log out: ends the session",
      tag: "session",
      auth: "operator",
      status: 204,
      async handle({ request, reply }) {
        await logOut(deps.session, request, reply);
        return undefined;
      },
    }),
  ];
}

export { LOGIN_ATTEMPTS, LOGIN_WINDOW_MS };
