import { z } from "zod";
import { type ApiRoute, defineRoute } from "../api-route.js";
import {
  assignRequest,
  conversationResult,
  modeRequest,
  noteRequest,
  noteResult,
  queued,
  replyRequest,
  templateRequest,
} from "../api-schemas.js";
import { conversationView, noteView } from "../api-views.js";
import type { ConsoleDeps } from "../console-deps.js";
import { ConsoleError } from "../errors.js";
import { accessOf, checkConversationAccess, type OperatorAccess } from "../operator-access.js";
import { operatorNames } from "../operator-names.js";

const empty = z.object({}).optional();

export function actionRoutes(deps: ConsoleDeps): ApiRoute[] {
  const { actions, store } = deps;
  const withNames = async (summary: Parameters<typeof conversationView>[0]) => ({
    conversation: conversationView(summary, await operatorNames(store.operators)),
  });
  const path = (action: string) => `/api/v1/conversations/:key/${action}`;
  const keyOf = (access: OperatorAccess | undefined, params: Readonly<Record<string, string>>) => {
    const key = params.key as string;
    checkConversationAccess(access as OperatorAccess, key);
    return key;
  };

  return [
    defineRoute({
      method: "POST",
      path: path("takeover"),
      summary: "Take the conversation over: mode human, assigned to me (the bot falls silent)",
      tag: "actions",
      auth: "operator",
      body: empty,
      response: conversationResult,
      errors: [404],
      async handle({ access, params }) {
        const operator = access as OperatorAccess;
        return withNames(await actions.takeOver(keyOf(access, params), operator.operator.id));
      },
    }),
    defineRoute({
      method: "POST",
      path: path("assign"),
      summary: "Assign the conversation to an operator of its tenant (default me; null unassigns)",
      tag: "actions",
      auth: "operator",
      body: assignRequest,
      response: conversationResult,
      errors: [404],
      async handle({ access, params, body }) {
        const operator = access as OperatorAccess;
        const key = keyOf(access, params);
        const target = body.operatorId === undefined ? operator.operator.id : body.operatorId;
        if (target !== null && target !== operator.operator.id) {
          const other = await store.operators.operatorById(target);
          const tenantId = checkConversationAccess(operator, key);
          if (
            other === undefined ||
            accessOf(other, operator.tenantIds, "token").roleOn(tenantId) === undefined
          ) {
            throw new ConsoleError("notFound", "no such operator on this conversation's tenant");
          }
        }
        return withNames(await actions.assign(key, target ?? undefined));
      },
    }),
    defineRoute({
      method: "POST",
      path: path("mode"),
      summary: "Who answers: bot (gives it back; the bot answers the next message), human, or paused",
      tag: "actions",
      auth: "operator",
      body: modeRequest,
      response: conversationResult,
      errors: [404],
      async handle({ access, params, body }) {
        return withNames(await actions.setMode(keyOf(access, params), body.mode));
      },
    }),
    defineRoute({
      method: "POST",
      path: path("reply"),
      summary:
        "Queue an operator's reply (text, up to 3 quick replies) through the outbound queue; takes a bot conversation over first",
      tag: "actions",
      auth: "operator",
      body: replyRequest,
      response: queued,
      status: 202,
      errors: [404, 409],
      async handle({ access, params, body }) {
        const operator = access as OperatorAccess;
        const key = keyOf(access, params);
        return { queued: await actions.reply(key, operator.operator.id, body) };
      },
    }),
    defineRoute({
      method: "POST",
      path: path("template"),
      summary: "Queue an approved template (the way back once the 24-hour window has closed)",
      tag: "actions",
      auth: "operator",
      body: templateRequest,
      response: queued,
      status: 202,
      errors: [404, 409],
      async handle({ access, params, body }) {
        const operator = access as OperatorAccess;
        return { queued: await actions.sendTemplate(keyOf(access, params), operator.operator.id, body) };
      },
    }),
    defineRoute({
      method: "POST",
      path: path("notes"),
      summary: "Add an internal note (never sent to the customer)",
      tag: "actions",
      auth: "operator",
      body: noteRequest,
      response: noteResult,
      status: 201,
      errors: [404],
      async handle({ access, params, body }) {
        const operator = access as OperatorAccess;
        const note = await actions.addNote(keyOf(access, params), operator.operator.id, body.text);
        return { note: noteView(note, await operatorNames(store.operators)) };
      },
    }),
    defineRoute({
      method: "POST",
      path: path("seen"),
      summary: "Mark the conversation read (an operator opened it)",
      tag: "actions",
      auth: "operator",
      body: empty,
      status: 204,
      errors: [404],
      async handle({ access, params }) {
        await actions.markSeen(keyOf(access, params));
        return undefined;
      },
    }),
  ];
}
