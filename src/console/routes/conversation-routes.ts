import { type ApiRoute, defineRoute } from "../api-route.js";
import {
  conversationDetail,
  conversationList,
  conversationQuery,
  messageList,
  messagesQuery,
} from "../api-schemas.js";
import { conversationView, messageView, noteView, turnView } from "../api-views.js";
import { serviceWindowOf } from "../console-actions.js";
import type { ConsoleDeps } from "../console-deps.js";
import { ConsoleError } from "../errors.js";
import { checkConversationAccess, type OperatorAccess, tenantsAsked } from "../operator-access.js";
import { operatorNames } from "../operator-names.js";

const DETAIL_MESSAGES = 100;
const DETAIL_TURNS = 50;
const DETAIL_NOTES = 50;

export function conversationRoutes(deps: ConsoleDeps): ApiRoute[] {
  const { store } = deps;
  return [
    defineRoute({
      method: "GET",
      path: "/api/v1/conversations",
      summary: "Conversations by last activity, newest first, filtered and keyset-paged",
      tag: "conversations",
      auth: "operator",
      query: conversationQuery,
      response: conversationList,
      async handle({ access, query }) {
        const operator = access as OperatorAccess;
        const tenantIds = tenantsAsked(operator, query.tenant);
        if (tenantIds.length === 0) return { items: [] };
        const page = await store.console.findConversations(
          {
            tenantIds,
            ...(query.phoneNumberId === undefined ? {} : { phoneNumberId: query.phoneNumberId }),
            view: query.view ?? "all",
            assignedTo: operator.operator.id,
            ...(query.q === undefined ? {} : { search: query.q }),
          },
          { limit: query.limit ?? 50, ...(query.before === undefined ? {} : { before: query.before }) },
        );
        const names = await operatorNames(store.operators);
        return {
          items: page.items.map((summary) => conversationView(summary, names)),
          ...(page.next === undefined ? {} : { next: page.next }),
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/conversations/:key",
      summary:
        "One conversation: its newest messages with delivery ticks, the bot's turns, notes, the 24-hour window",
      tag: "conversations",
      auth: "operator",
      response: conversationDetail,
      errors: [404],
      async handle({ access, params }) {
        const key = params.key as string;
        checkConversationAccess(access as OperatorAccess, key);
        const summary = await store.console.conversation(key);
        if (summary === undefined) throw new ConsoleError("notFound", "no such conversation");
        const [messages, turns, notes, names] = await Promise.all([
          store.messagesOf(key, { limit: DETAIL_MESSAGES }),
          store.console.turnsOf(key, { limit: DETAIL_TURNS }),
          store.console.notesOf(key, DETAIL_NOTES),
          operatorNames(store.operators),
        ]);
        return {
          conversation: conversationView(summary, names),
          messages: messages.items.map((message) => messageView(message, names)),
          ...(messages.next === undefined ? {} : { nextMessages: messages.next }),
          turns: turns.items.map(turnView),
          notes: notes.map((note) => noteView(note, names)),
          window: serviceWindowOf(summary, deps.now()),
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/conversations/:key/messages",
      summary: "Older messages of a conversation, newest first",
      tag: "conversations",
      auth: "operator",
      query: messagesQuery,
      response: messageList,
      errors: [404],
      async handle({ access, params, query }) {
        const key = params.key as string;
        checkConversationAccess(access as OperatorAccess, key);
        const page = await store.messagesOf(key, {
          limit: query.limit ?? 50,
          ...(query.before === undefined ? {} : { before: query.before }),
        });
        const names = await operatorNames(store.operators);
        return {
          items: page.items.map((message) => messageView(message, names)),
          ...(page.next === undefined ? {} : { next: page.next }),
        };
      },
    }),
  ];
}
