import { StoreInvalidQueryError } from "./errors.js";
import type { ConversationQuery, ConversationView } from "./ports.js";

const VIEWS: ReadonlySet<string> = new Set<ConversationView>([
  "all",
  "needs_human",
  "mine",
  "bot",
  "paused",
  "unread",
]);

/** A `ConversationQuery` checked and reduced to what the SQL needs. */
export interface ResolvedConversationQuery {
  /** Distinct, in the order given. */
  readonly tenantIds: readonly string[];
  readonly view: ConversationView;
  readonly phoneNumberId?: string;
  readonly assignedTo?: string;
  /** Trimmed and non-empty; absent means no search. */
  readonly search?: string;
}

/**
 * The tenants a console read covers. An empty list is refused rather than
 * read as "every tenant": a reader with no grant must see nothing.
 */
export function tenantIdsOf(tenantIds: readonly string[]): readonly string[] {
  if (tenantIds.length === 0) throw new StoreInvalidQueryError("at least one tenant id is needed");
  return [...new Set(tenantIds)];
}

export function resolveConversationQuery(query: ConversationQuery): ResolvedConversationQuery {
  const view = query.view ?? "all";
  if (!VIEWS.has(view)) throw new StoreInvalidQueryError(`unknown view "${view}"`);
  if (view === "mine" && (query.assignedTo === undefined || query.assignedTo === "")) {
    throw new StoreInvalidQueryError("the `mine` view needs `assignedTo`, the operator's id");
  }
  const search = query.search?.trim();
  return {
    tenantIds: tenantIdsOf(query.tenantIds),
    view,
    ...(query.phoneNumberId === undefined ? {} : { phoneNumberId: query.phoneNumberId }),
    ...(view === "mine" && query.assignedTo !== undefined ? { assignedTo: query.assignedTo } : {}),
    ...(search === undefined || search === "" ? {} : { search }),
  };
}

/**
 * Unread: a customer message newer than the last time an operator opened the
 * conversation, or never opened. Spelled exactly as the partial index's
 * predicate of migration 3 (on table alias `c`), which is what lets both
 * planners use that index; `toConversationSummary` applies the same rule.
 */
export const UNREAD_CONDITION =
  "(c.last_inbound_at > c.seen_at OR (c.seen_at IS NULL AND c.last_inbound_at IS NOT NULL))";

/**
 * The view's condition on conversation alias `c`, in SQL both adapters share;
 * `assignee` is the placeholder bound to `assignedTo` (used by `mine` only).
 * Undefined for `all`.
 */
export function viewCondition(view: ConversationView, assignee: string): string | undefined {
  switch (view) {
    case "all":
      return undefined;
    case "needs_human":
      return "c.mode = 'human'";
    case "bot":
      return "c.mode = 'bot'";
    case "paused":
      return "c.mode = 'paused'";
    case "mine":
      return `c.assigned_agent = ${assignee}`;
    case "unread":
      return UNREAD_CONDITION;
  }
}
