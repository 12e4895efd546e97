// The console's JSON API (`/api/v1` on the admin listener): its types, and a small client that keeps
// the session's CSRF token, sends it on every state-changing request, and turns errors into ApiError.

export type Role = "admin" | "agent";
/** A role on one tenant, or on every tenant (`tenantId` "*"). */
export interface Grant {
  tenantId: string;
  role: Role;
}
export interface Operator {
  id: string;
  email: string;
  name: string;
  grants: Grant[];
}
export interface Session {
  operator: Operator;
  csrfToken: string;
}

export interface Tenant {
  id: string;
  role: Role;
  phoneNumberIds: string[];
  simulator: { available: boolean; reason?: string };
}

export type Mode = "bot" | "human" | "paused";
export type View = "all" | "needs_human" | "mine" | "bot" | "paused" | "unread";
export type Direction = "inbound" | "outbound";
export type DeliveryStatus = "sent" | "delivered" | "read" | "played" | "deleted" | "failed";

export interface Conversation {
  tenantId: string;
  conversationKey: string;
  phoneNumberId: string;
  customerId?: string;
  customerName?: string;
  mode: Mode;
  /** An operator id. */
  assignedAgent?: string;
  assignedAgentName?: string;
  /** ms since the epoch, as every `at` here. */
  lastActivityAt: number;
  lastInboundAt?: number;
  awaitingReplySince?: number;
  unread: boolean;
  lastMessage?: { direction: Direction; type: string; preview?: string; at: number };
}

export interface Delivery {
  status: DeliveryStatus;
  at: number;
  errorCode?: number;
  errorTitle?: string;
}

/** What the worker read from a voice note, a picture or a document. */
export interface Reading {
  kind: string;
  mimeType?: string;
  size?: number;
  transcript?: { text: string; language?: string; provider: string; model: string };
  receipt?: Record<string, unknown>;
  extractedText?: string;
  description?: string;
  failure?: { code: string; reason: string };
}

export interface Message {
  direction: Direction;
  wamid?: string;
  customerId?: string;
  turnId?: string;
  part?: number;
  type: string;
  text?: string;
  /** Outbound: the Graph API body of our message. */
  body?: unknown;
  mediaId?: string;
  caption?: string;
  /** Inbound: the customer's whole normalised message (`content.content`: the type's own fields). */
  content?: unknown;
  /** Inbound: what the worker read from the media. */
  reading?: Reading;
  at: number;
  /** The operator who wrote it; absent: the bot. */
  sentBy?: string;
  sentByName?: string;
  delivery?: Delivery;
}

export interface ToolCall {
  name: string;
  arguments: string;
  result: string;
  ok: boolean;
}
export interface Turn {
  turnId: string;
  at: number;
  decision: { tier: string; intent: string; confidence: number; resolved: boolean };
  agent?: {
    outcome: string;
    promptTokens: number;
    completionTokens: number;
    costUsd: number;
    tools: string[];
    calls?: ToolCall[];
  };
}

export interface Note {
  id: string;
  operatorId: string;
  operatorName?: string;
  text: string;
  at: number;
}

export interface ConversationDetail {
  conversation: Conversation;
  /** Newest first, as turns and notes. */
  messages: Message[];
  nextMessages?: string;
  turns: Turn[];
  notes: Note[];
  window: { open: boolean; closesAt?: number };
}

export interface Page<T> {
  items: T[];
  next?: string;
}

export interface QuickReply {
  id: string;
  title: string;
}

export interface Template {
  name: string;
  language: string;
  category: string;
  status: string;
  body?: string;
  parameterCount: number;
}

export interface Chaos {
  duplicate?: boolean;
  outOfOrder?: boolean;
  burst?: boolean;
  staleReplay?: boolean;
}
export interface SimulatorMessage {
  tenant: string;
  phoneNumberId?: string;
  /** Digits: the pretend customer's wa_id. */
  from: string;
  name?: string;
  text?: string;
  buttonReply?: QuickReply;
  listReply?: QuickReply;
  chaos?: Chaos;
}

export interface MetricsBucket {
  at: number;
  inbound: number;
  outbound: number;
  operatorMessages: number;
  turns: number;
  localTurns: number;
  agentTurns: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  failedDeliveries: number;
}
export interface Percentiles {
  p50: number;
  p99: number;
}
/** A turn that failed too often and was set aside unanswered, for an operator to look at. */
export interface SetAsideTurn {
  conversationKey: string;
  turnId: string;
  attempts: number;
  reason: string;
  setAsideAt: number;
  messages: number;
  firstText?: string;
}

export interface Metrics {
  buckets: MetricsBucket[];
  bucketMs: number;
  totals: {
    inbound: number;
    outbound: number;
    turns: number;
    localTurns: number;
    agentTurns: number;
    /** 0..1 */
    localShare: number;
    llmCalls?: number;
    promptTokens: number;
    completionTokens: number;
    costUsd: number;
    savedUsd: number;
  };
  latency: { webhookAckMs: Percentiles | null; endToEndMs: Percentiles | null };
  queues: { name: string; depth: number; oldestAgeMs: number }[];
  deliveryFailures: { code: number; title?: string; count: number }[];
  handoffs: { waiting: number; oldestWaitMs?: number };
  metaSilent: { silent: boolean; minutes: number; lastWebhookAt?: number };
}

/** The server-sent events of `/api/v1/events`. */
export interface LiveEventMap {
  message: { tenantId: string; conversationKey: string; direction: Direction; type: string; at: number };
  status: { tenantId: string; conversationKey?: string; wamid: string; status: string };
  mode: { tenantId: string; conversationKey: string; mode: Mode; assignedAgent?: string };
  note: { tenantId: string; conversationKey: string };
  turn: { tenantId: string; conversationKey: string; turnId: string };
}
export type LiveEventName = keyof LiveEventMap;
export type LiveEvent = { [K in LiveEventName]: { name: K; data: LiveEventMap[K] } }[LiveEventName];
export const LIVE_EVENT_NAMES: LiveEventName[] = ["message", "status", "mode", "note", "turn"];

export const API_BASE = "/api/v1";

/** A non-2xx answer: `code` is the server's `error` (or `SS_CONSOLE_HTTP_<status>` when it sent none). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;
  constructor(status: number, code: string, message: string, body: Record<string, unknown>) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.body = body;
  }
  get retryAfterSeconds(): number | undefined {
    const value = this.body.retryAfterSeconds;
    return typeof value === "number" ? value : undefined;
  }
}

let csrfToken: string | undefined;
let onUnauthorized: (() => void) | undefined;

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}
/** Called on a 401 from any request but the login itself: the session is gone. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One call of `/api/v1` (path without the base); other clients of the API (campaigns) build on it. */
export async function request<T>(method: Method, path: string, body?: unknown, quiet401 = false): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && csrfToken !== undefined) headers["x-csrf-token"] = csrfToken;
  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "SS_CONSOLE_NETWORK", "The gateway did not answer. Check your connection.", {});
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (response.ok) return parsed as T;
  const errorBody = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  const code = typeof errorBody.error === "string" ? errorBody.error : `SS_CONSOLE_HTTP_${response.status}`;
  const message =
    typeof errorBody.message === "string"
      ? errorBody.message
      : `The gateway answered ${response.status} ${response.statusText}`.trim();
  if (response.status === 401 && !quiet401) onUnauthorized?.();
  throw new ApiError(response.status, code, message, errorBody);
}

const key = (conversationKey: string) => `/conversations/${encodeURIComponent(conversationKey)}`;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") search.set(name, String(value));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

export interface ConversationListQuery {
  tenant?: string;
  phoneNumberId?: string;
  view: View;
  q?: string;
  limit?: number;
  before?: string;
}

export const api = {
  /** The current session, or undefined when there is none (401). */
  async session(): Promise<Session | undefined> {
    try {
      return await request<Session>("GET", "/session", undefined, true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return undefined;
      throw error;
    }
  },
  login: (email: string, password: string) => request<Session>("POST", "/session", { email, password }, true),
  logout: () => request<void>("DELETE", "/session"),
  tenants: () => request<Page<Tenant>>("GET", "/tenants"),
  conversations: (q: ConversationListQuery) =>
    request<Page<Conversation>>(
      "GET",
      `/conversations${query({ tenant: q.tenant, phoneNumberId: q.phoneNumberId, view: q.view, q: q.q, limit: q.limit ?? 50, before: q.before })}`,
    ),
  conversation: (conversationKey: string) => request<ConversationDetail>("GET", key(conversationKey)),
  olderMessages: (conversationKey: string, before: string, limit = 50) =>
    request<Page<Message>>("GET", `${key(conversationKey)}/messages${query({ before, limit })}`),
  takeover: (conversationKey: string) =>
    request<{ conversation: Conversation }>("POST", `${key(conversationKey)}/takeover`, {}),
  assignable: (tenant: string) =>
    request<{ items: { id: string; name: string }[] }>(
      "GET",
      `/tenants/${encodeURIComponent(tenant)}/operators`,
    ),
  assign: (conversationKey: string, operatorId: string | null) =>
    request<{ conversation: Conversation }>("POST", `${key(conversationKey)}/assign`, { operatorId }),
  setMode: (conversationKey: string, mode: Mode) =>
    request<{ conversation: Conversation }>("POST", `${key(conversationKey)}/mode`, { mode }),
  reply: (conversationKey: string, reply: { text: string; buttons?: QuickReply[]; confirm?: boolean }) =>
    request<{ queued: { turnId: string; part: number } }>("POST", `${key(conversationKey)}/reply`, reply),
  template: (
    conversationKey: string,
    template: { name: string; language: string; parameters?: string[]; confirm?: boolean },
  ) => request<unknown>("POST", `${key(conversationKey)}/template`, template),
  addNote: (conversationKey: string, text: string) =>
    request<{ note: Note }>("POST", `${key(conversationKey)}/notes`, { text }),
  seen: (conversationKey: string) => request<void>("POST", `${key(conversationKey)}/seen`, {}),
  templates: (tenant: string) =>
    request<{ items: Template[]; reason?: string }>(
      "GET",
      `/tenants/${encodeURIComponent(tenant)}/templates`,
    ),
  simulate: (message: SimulatorMessage) =>
    request<{ conversationKey: string; wamids: string[] }>("POST", "/simulator/messages", message),
  metrics: (tenant: string | undefined, hours: number) =>
    request<Metrics>("GET", `/metrics${query({ tenant, hours })}`),
  setAsideTurns: (tenant: string | undefined) =>
    request<{ items: SetAsideTurn[] }>("GET", `/turns/set-aside${query({ tenant })}`),
};

export function eventsUrl(tenant: string | undefined): string {
  return `${API_BASE}/events${query({ tenant })}`;
}
