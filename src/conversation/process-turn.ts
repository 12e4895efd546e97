import type { TenantConfig } from "../config/index.js";
import type { Logger } from "../observability/index.js";
import type { OutboundQueue, OutboundReply } from "../outbound/index.js";
import type { ConversationInbox, TurnJob } from "../queue/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import { coalesceUntil, coalescingOn, isStale } from "./coalesce.js";
import { UnknownTenantError } from "./errors.js";
import type { ConversationLock, ConversationStateStore, HistoryEntry } from "./ports.js";
import { type Responder, ResponderBusyError, type TurnReply, type TypingIndicator } from "./ports.js";
import { replyBody } from "./reply-body.js";
import { turnIdFor } from "./turn-id.js";

/** What one run of a turn job did. */
export type TurnOutcome =
  | { readonly kind: "empty" }
  /** Coalescing: run again at `until` (ms since the epoch). */
  | { readonly kind: "postpone"; readonly until: number }
  /** Another turn of the conversation holds its lock: run again shortly. */
  | { readonly kind: "busy"; readonly retryAfterMs?: number }
  | { readonly kind: "handled"; readonly turns: readonly HandledTurn[] };

export interface HandledTurn {
  readonly turnId: string;
  readonly messages: number;
  readonly stale: number;
  readonly replies: number;
  /** When the turn's earliest message reached the ingress, ms since the epoch. */
  readonly receivedAt: number;
  /** When its replies were queued (or dropped), ms since the epoch. */
  readonly queuedAt: number;
}

export interface TurnProcessorDeps {
  readonly inbox: ConversationInbox;
  readonly outbound: OutboundQueue;
  readonly responder: Responder;
  readonly tenant: (tenantId: string) => TenantConfig | undefined;
  /** Optional guard against a second turn of the same conversation (see createTurnWorker). */
  readonly lock?: ConversationLock;
  /** Marks the turn's newest message read with the typing indicator before answering; optional. */
  readonly typing?: TypingIndicator;
  /** Conversation mode (bot / human / paused) and recent history; optional. */
  readonly state?: ConversationStateStore;
  readonly logger: Logger;
  /** ms since the epoch. */
  readonly now: () => number;
}

export interface TurnProcessorOptions {
  /** Most messages read (and so handled as one turn) per run; default 100. */
  readonly maxMessages?: number;
}

function addressOf(message: InboundMessage): Pick<OutboundReply, "to" | "recipient"> {
  const { waId, userId } = message.customer;
  if (waId !== undefined) return { to: waId };
  return userId === undefined ? {} : { recipient: userId };
}

/**
 * One run of a turn job, apart from BullMQ: reads the conversation's inbox
 * (ordered), postpones while a burst is still coming, answers the messages as
 * one turn (or, with coalescing off, one turn per message, oldest first),
 * queues the reply under the turn's deterministic id, then completes the
 * messages. A run that fails after queuing is safe to repeat: the same
 * messages give the same turn id, and the outbound queue skips known parts.
 */
export function createTurnProcessor(deps: TurnProcessorDeps, options: TurnProcessorOptions = {}) {
  const maxMessages = options.maxMessages ?? 100;
  // The newest wamids this worker showed the typing indicator for (insertion-ordered, bounded).
  const typed = new Set<string>();
  const rememberTyped = (wamid: string) => {
    typed.add(wamid);
    if (typed.size > 10_000) typed.delete(typed.values().next().value as string);
  };

  // Best effort, after the turn completed: a lost history line costs context, a failed turn would cost a reply.
  const appendHistory = async (
    conversationKey: string,
    messages: readonly InboundMessage[],
    replies: readonly TurnReply[],
    queuedAt: number,
  ) => {
    if (deps.state === undefined) return;
    const entries: HistoryEntry[] = [
      ...messages.map((message) => ({
        at: message.timestamp * 1000,
        from: "customer" as const,
        type: message.type,
        wamid: message.wamid,
        ...(message.text === undefined ? {} : { text: message.text }),
      })),
      ...replies.map((reply) => ({ at: queuedAt, from: "bot" as const, type: "reply", text: reply.text })),
    ];
    try {
      await deps.state.append(conversationKey, entries);
    } catch (error) {
      deps.logger.warn({ err: error }, "could not append to the conversation history");
    }
  };

  const handle = async (tenant: TenantConfig, job: TurnJob, messages: readonly InboundMessage[]) => {
    const wamids = messages.map((message) => message.wamid);
    const turnId = turnIdFor(wamids);
    const last = messages[messages.length - 1] as InboundMessage;
    const fresh = messages.filter((message) => !isStale(message, tenant.staleAfterMs));
    const input = { tenant, conversationKey: job.conversationKey, messages, turnId };
    // While a human has the conversation (or it is paused) the bot stays silent; the messages still
    // go to the history, for whoever answers.
    const botAnswers = (await deps.state?.mode(job.conversationKey)) ?? "bot";
    // Once per message: a turn that comes back busy must not mark the message read again and again.
    if (botAnswers === "bot" && !typed.has(last.wamid)) {
      rememberTyped(last.wamid);
      await deps.typing?.show(tenant, last.phoneNumberId, last.wamid);
    }
    // Mixed turns answer the fresh messages only: the fresh answer covers the replayed ones too.
    const replies: readonly TurnReply[] =
      botAnswers !== "bot"
        ? []
        : fresh.length === 0
          ? await deps.responder.respondToStale(input)
          : await deps.responder.respond({ ...input, messages: fresh });
    const address = addressOf(last);
    const receivedAt = Math.min(...messages.map((message) => message.receivedAt));
    if (replies.length > 0 && address.to === undefined && address.recipient === undefined) {
      deps.logger.warn({ turnId }, "turn has no customer address; reply dropped");
    } else {
      await deps.outbound.enqueue(
        replies.map((reply, part) => ({
          tenantId: tenant.id,
          phoneNumberId: last.phoneNumberId,
          conversationKey: job.conversationKey,
          ...address,
          turnId,
          part,
          message: replyBody(reply),
          receivedAt,
        })),
      );
    }
    // After the handoff message is queued and before the turn completes: a retried turn sets it again.
    if (replies.some((reply) => reply.handoff === true)) {
      await deps.state?.setMode(job.conversationKey, "human");
      deps.logger.info({ turnId }, "conversation handed to a human");
    }
    const queuedAt = deps.now();
    await deps.inbox.complete(job.conversationKey, wamids);
    await appendHistory(job.conversationKey, messages, replies, queuedAt);
    return {
      turnId,
      messages: messages.length,
      stale: messages.length - fresh.length,
      replies: replies.length,
      receivedAt,
      queuedAt,
    };
  };

  const runLocked = async (tenant: TenantConfig, job: TurnJob): Promise<TurnOutcome> => {
    try {
      return await runTurns(tenant, job);
    } catch (error) {
      // Nothing was completed: the same messages make the same turn on the next run.
      if (error instanceof ResponderBusyError) return { kind: "busy", retryAfterMs: error.retryAfterMs };
      throw error;
    }
  };

  const runTurns = async (tenant: TenantConfig, job: TurnJob): Promise<TurnOutcome> => {
    const handled: HandledTurn[] = [];
    for (;;) {
      const messages = await deps.inbox.read(job.conversationKey, maxMessages);
      if (messages.length === 0) break;
      if (coalescingOn(tenant.coalesce)) {
        const until = coalesceUntil(messages, tenant.coalesce, deps.now());
        if (until !== undefined) return { kind: "postpone", until };
        handled.push(await handle(tenant, job, messages));
        // Messages that arrived while this turn ran belong to the next turn (its own job).
        break;
      }
      handled.push(await handle(tenant, job, messages.slice(0, 1)));
    }
    return handled.length === 0 ? { kind: "empty" } : { kind: "handled", turns: handled };
  };

  return async function processTurn(job: TurnJob): Promise<TurnOutcome> {
    const tenant = deps.tenant(job.tenantId);
    if (tenant === undefined) throw new UnknownTenantError(job.tenantId);
    if (deps.lock === undefined) return runLocked(tenant, job);
    const token = await deps.lock.acquire(job.conversationKey);
    if (token === undefined) return { kind: "busy" };
    try {
      return await runLocked(tenant, job);
    } finally {
      await deps.lock.release(job.conversationKey, token);
    }
  };
}

export type TurnProcessor = ReturnType<typeof createTurnProcessor>;
