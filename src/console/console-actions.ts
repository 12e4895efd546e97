import { randomUUID } from "node:crypto";
import type { ConversationMode, ConversationStateStore, ReplyButton } from "../conversation/index.js";
import { replyBody } from "../conversation/index.js";
import type { OutboundQueue } from "../outbound/index.js";
import type { ConversationSummary, MessageStore, StoredNote } from "../store/index.js";
import { splitCustomerOfConversation } from "../whatsapp/index.js";
import { ConsoleError } from "./errors.js";

/** Meta's customer service window: free-form messages only within 24 h of the customer's last message. */
export const SERVICE_WINDOW_MS = 24 * 3_600_000;

export interface ConsoleActionsDeps {
  readonly store: MessageStore;
  /** The port the turn worker reads the mode from: what the bot obeys. */
  readonly conversationState: ConversationStateStore;
  /** The gateway's outbound queue (recorded in the log): rate limits, send order and retries apply. */
  readonly outboundQueue: OutboundQueue;
  readonly now: () => number;
}

export interface OperatorReply {
  readonly text: string;
  readonly buttons?: readonly ReplyButton[];
  /** Answer although another operator is assigned. */
  readonly confirm?: boolean;
}

export interface OperatorTemplate {
  readonly name: string;
  readonly language: string;
  /** The body's {{1}}, {{2}}, … in order. */
  readonly parameters?: readonly string[];
  readonly confirm?: boolean;
}

/** Whether the operator may send free-form messages, and until when. */
export function serviceWindowOf(conversation: ConversationSummary, nowMs: number) {
  if (conversation.lastInboundAt === undefined) return { open: false } as const;
  const closesAt = conversation.lastInboundAt + SERVICE_WINDOW_MS;
  return { open: closesAt > nowMs, closesAt } as const;
}

/**
 * What an operator does to a conversation, through the ports the gateway
 * itself uses: the mode goes to the conversation state the turn worker
 * reads (so the bot falls silent or speaks again at its next turn), and a
 * reply goes into the outbound queue like the bot's, never straight to Meta.
 */
export function createConsoleActions(deps: ConsoleActionsDeps) {
  const { store } = deps;

  const known = async (conversationKey: string): Promise<ConversationSummary> => {
    const conversation = await store.console.conversation(conversationKey);
    if (conversation === undefined) throw new ConsoleError("notFound", "no such conversation");
    return conversation;
  };

  const setState = async (
    conversationKey: string,
    mode: ConversationMode,
    assignedAgent: string | undefined,
  ) => {
    // The bot obeys the conversation state; the log's copy is what the console shows.
    await deps.conversationState.setMode(conversationKey, mode);
    await store.setConversationState(conversationKey, {
      mode,
      ...(assignedAgent === undefined ? {} : { assignedAgent }),
    });
    return known(conversationKey);
  };

  const checkAssignment = (
    conversation: ConversationSummary,
    operatorId: string,
    confirm: boolean | undefined,
  ) => {
    const assigned = conversation.assignedAgent;
    if (assigned !== undefined && assigned !== operatorId && confirm !== true) {
      throw new ConsoleError(
        "notAssigned",
        "another operator is assigned this conversation; confirm to answer anyway",
        {
          assignedAgent: assigned,
        },
      );
    }
  };

  /** Queues one operator message; a conversation the bot had is taken over first, so the bot cannot answer too. */
  const send = async (
    conversation: ConversationSummary,
    operatorId: string,
    message: Readonly<Record<string, unknown>>,
  ) => {
    if (conversation.mode === "bot") await setState(conversation.conversationKey, "human", operatorId);
    const { customerId } = splitCustomerOfConversation(conversation.conversationKey);
    const address = /^\d+$/.test(customerId) ? { to: customerId } : { recipient: customerId };
    const turnId = `op-${randomUUID()}`;
    await deps.outboundQueue.enqueue([
      {
        tenantId: conversation.tenantId,
        phoneNumberId: conversation.phoneNumberId,
        conversationKey: conversation.conversationKey,
        ...address,
        turnId,
        part: 0,
        message,
        sentBy: operatorId,
      },
    ]);
    return { turnId, part: 0 };
  };

  return {
    /** Mode `human`, assigned to the operator. */
    takeOver: (conversationKey: string, operatorId: string) => setState(conversationKey, "human", operatorId),

    /** Assigns (or, with undefined, unassigns) without changing who answers. */
    async assign(conversationKey: string, operatorId: string | undefined) {
      const conversation = await known(conversationKey);
      return setState(conversationKey, conversation.mode, operatorId);
    },

    /**
     * `bot` gives the conversation back (unassigned): the bot answers the customer's next message,
     * and what they wrote while a human had it was completed then, so it is never answered twice.
     */
    async setMode(conversationKey: string, mode: ConversationMode) {
      const conversation = await known(conversationKey);
      return setState(conversationKey, mode, mode === "bot" ? undefined : conversation.assignedAgent);
    },

    async reply(conversationKey: string, operatorId: string, reply: OperatorReply) {
      const conversation = await known(conversationKey);
      checkAssignment(conversation, operatorId, reply.confirm);
      if (!serviceWindowOf(conversation, deps.now()).open) {
        throw new ConsoleError(
          "windowClosed",
          "the customer last wrote more than 24 hours ago (or never): send an approved template instead",
        );
      }
      return send(
        conversation,
        operatorId,
        replyBody({ text: reply.text, ...(reply.buttons === undefined ? {} : { buttons: reply.buttons }) }),
      );
    },

    async sendTemplate(conversationKey: string, operatorId: string, template: OperatorTemplate) {
      const conversation = await known(conversationKey);
      checkAssignment(conversation, operatorId, template.confirm);
      const parameters = template.parameters ?? [];
      return send(conversation, operatorId, {
        type: "template",
        template: {
          name: template.name,
          language: { code: template.language },
          ...(parameters.length === 0
            ? {}
            : {
                components: [
                  { type: "body", parameters: parameters.map((text) => ({ type: "text", text })) },
                ],
              }),
        },
      });
    },

    async addNote(conversationKey: string, operatorId: string, text: string): Promise<StoredNote> {
      const conversation = await known(conversationKey);
      return store.console.addNote({
        tenantId: conversation.tenantId,
        conversationKey,
        operatorId,
        text,
        at: deps.now(),
      });
    },

    markSeen: (conversationKey: string) => store.console.markSeen(conversationKey, deps.now()),
  };
}

export type ConsoleActions = ReturnType<typeof createConsoleActions>;
