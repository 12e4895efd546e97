import type { FastifyReply, FastifyRequest } from "fastify";
import type { OperatorStore } from "../store/index.js";
import { ConsoleError } from "./errors.js";
import { accessOf, type OperatorAccess } from "./operator-access.js";
import { decoyPasswordHash, verifyPassword } from "./passwords.js";
import { API_TOKEN_PREFIX, randomToken, sameSecret, tokenHash } from "./secret-tokens.js";

export const SESSION_COOKIE = "ss_session";

export interface SessionSettings {
  readonly operators: OperatorStore;
  readonly servedTenantIds: readonly string[];
  /** How long a session lives without use, ms; each use within it slides it on. */
  readonly sessionMs: number;
  /** The cookie's Secure flag: on when operators reach the console over HTTPS (a TLS proxy). */
  readonly secureCookies: boolean;
  readonly now: () => number;
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Who a request comes from: an API token (`Authorization: Bearer sst_…`,
 * for scripts; no cookie, so no CSRF to fear) or a session cookie, whose
 * state-changing requests must carry the session's CSRF token and come from
 * this origin. Undefined: nobody (the route answers 401).
 */
export async function authenticate(
  settings: SessionSettings,
  request: FastifyRequest,
): Promise<OperatorAccess | undefined> {
  const { operators } = settings;
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    const token = match?.[1];
    if (token === undefined || !token.startsWith(API_TOKEN_PREFIX)) return undefined;
    const record = await operators.useApiToken(tokenHash(token), settings.now());
    if (record === undefined) return undefined;
    const operator = await operators.operatorById(record.operatorId);
    return operator === undefined ? undefined : accessOf(operator, settings.servedTenantIds, "token");
  }
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie === undefined || cookie === "") return undefined;
  const idHash = tokenHash(cookie);
  const now = settings.now();
  const session = await operators.session(idHash, now);
  if (session === undefined) return undefined;
  const operator = await operators.operatorById(session.operatorId);
  if (operator === undefined) return undefined;
  if (STATE_CHANGING.has(request.method)) checkCsrf(request, session.csrfToken);
  // Slide the expiry on only once half of it is gone: one write per half-life, not per request.
  if (session.expiresAt - now < settings.sessionMs / 2) {
    await operators.extendSession(idHash, now + settings.sessionMs);
  }
  return accessOf(operator, settings.servedTenantIds, "session", session);
}

function checkCsrf(request: FastifyRequest, csrfToken: string): void {
  const sent = request.headers["x-csrf-token"];
  if (typeof sent !== "string" || !sameSecret(sent, csrfToken)) {
    throw new ConsoleError("csrfMissing", "send the session's CSRF token in x-csrf-token");
  }
  checkOrigin(request);
}

/** A browser names the page's origin on cross-site writes; it must be this listener's. */
export function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw new ConsoleError("csrfMissing", "the request's Origin is not a URL");
  }
  if (host !== request.headers.host) {
    throw new ConsoleError("csrfMissing", `a request from ${origin} may not act on this console`);
  }
}

/** Checks the password (as slowly for an unknown e-mail), then opens a session and sets its cookie. */
export async function logIn(
  settings: SessionSettings,
  reply: FastifyReply,
  email: string,
  password: string,
): Promise<OperatorAccess> {
  const operator = await settings.operators.operatorByEmail(email.trim().toLowerCase());
  const matches = await verifyPassword(password, operator?.passwordHash ?? (await decoyPasswordHash()));
  if (operator === undefined || !matches) {
    throw new ConsoleError("badCredentials", "wrong e-mail or password");
  }
  const token = randomToken();
  const now = settings.now();
  const session = {
    idHash: tokenHash(token),
    operatorId: operator.id,
    csrfToken: randomToken(),
    createdAt: now,
    expiresAt: now + settings.sessionMs,
  };
  await settings.operators.createSession(session);
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "strict",
    secure: settings.secureCookies,
    path: "/",
    maxAge: Math.floor(settings.sessionMs / 1000),
  });
  return accessOf(operator, settings.servedTenantIds, "session", session);
}

export async function logOut(settings: SessionSettings, request: FastifyRequest, reply: FastifyReply) {
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie !== undefined && cookie !== "") await settings.operators.deleteSession(tokenHash(cookie));
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
}
