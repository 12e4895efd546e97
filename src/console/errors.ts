import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const consoleErrorCatalog = {
  unauthenticated: {
    code: "SS_CONSOLE_UNAUTHENTICATED",
    httpStatus: 401,
    meaning:
      "A console API request without a live session cookie or API token: log in (POST /api/v1/session) or send `Authorization: Bearer <API token>`.",
  },
  badCredentials: {
    code: "SS_CONSOLE_BAD_CREDENTIALS",
    httpStatus: 401,
    meaning: "Login with an unknown e-mail or a wrong password (the answer does not say which).",
  },
  loginRateLimited: {
    code: "SS_CONSOLE_LOGIN_RATE_LIMITED",
    httpStatus: 429,
    meaning: "Too many login attempts for this e-mail from this address; wait `retryAfterSeconds`.",
  },
  csrfMissing: {
    code: "SS_CONSOLE_CSRF",
    httpStatus: 403,
    meaning:
      "A state-changing request on a session cookie without the session's `x-csrf-token` header, or from another origin.",
  },
  forbidden: {
    code: "SS_CONSOLE_FORBIDDEN",
    httpStatus: 403,
    meaning: "The operator's role does not allow this (managing operators needs `admin` on the tenant).",
  },
  notFound: {
    code: "SS_CONSOLE_NOT_FOUND",
    httpStatus: 404,
    meaning:
      "No such conversation, tenant or token among those the operator may see (another tenant's look the same as missing ones).",
  },
  invalidRequest: {
    code: "SS_CONSOLE_INVALID_REQUEST",
    httpStatus: 400,
    meaning:
      "A console API request whose query or body does not match the API (the message names the field).",
  },
  notAssigned: {
    code: "SS_CONSOLE_NOT_ASSIGNED",
    httpStatus: 409,
    meaning:
      "Another operator is assigned the conversation; send again with `confirm: true` to answer anyway.",
  },
  windowClosed: {
    code: "SS_CONSOLE_WINDOW_CLOSED",
    httpStatus: 409,
    meaning:
      "The customer's last message is more than 24 hours old (or there is none): Meta accepts only an approved template until they write again.",
  },
  simulatorUnavailable: {
    code: "SS_CONSOLE_SIMULATOR_UNAVAILABLE",
    httpStatus: 409,
    meaning:
      "The simulator posts webhooks to this gateway and the replies would go to a real WhatsApp user: it works only against a Graph API on this machine (the demo's fake, development).",
  },
  operatorExists: {
    code: "SS_CONSOLE_OPERATOR_EXISTS",
    httpStatus: 409,
    meaning: "An operator with this e-mail exists already.",
  },
  templatesUnavailable: {
    code: "SS_CONSOLE_TEMPLATES_UNAVAILABLE",
    httpStatus: 502,
    meaning:
      "The Graph API did not answer the template list (message_templates); the reason is in the message.",
  },
  internal: {
    code: "SS_CONSOLE_INTERNAL",
    httpStatus: 500,
    meaning:
      "An unexpected error in a console API request, logged with the route; the answer says nothing more.",
  },
  tooManyStreams: {
    code: "SS_CONSOLE_TOO_MANY_STREAMS",
    httpStatus: 503,
    meaning:
      "This process serves as many event streams as it allows (CONSOLE_MAX_STREAMS); close a console tab.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

type CatalogName = keyof typeof consoleErrorCatalog;

/** An error a console request ends with: its code and status come from the catalog. */
export class ConsoleError extends SharpsharpError {
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(name: CatalogName, message: string, details?: Readonly<Record<string, unknown>>) {
    const entry = consoleErrorCatalog[name];
    super(entry.code, message, { httpStatus: entry.httpStatus });
    this.details = details;
  }
}
