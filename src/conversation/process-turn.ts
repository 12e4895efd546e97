import type { TenantConfig } from "../config/index.js";
import type { ActiveSpan, Logger, SpanAttributes, Tracing } from "../observability/index.js";
import type { OutboundQueue, OutboundReply } from "../outbound/index.js";
import type { ConversationInbox, TurnJob } from "../queue/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import { coalesceUntil, coalescingOn, isStale } from "./coalesce.js";
import { UnknownTenantError } from "./errors.js";
import { keepLeaseAlive } from "./lease-renewal.js";
import type {
  ConversationLock,
  ConversationStateStore,
  HistoryEntry,
  ResumedTurn,
  StepOptions,
  TurnJournal,
  TurnMediaRead,
  TurnMediaReader,
} from "./ports.js";
import { type Responder, ResponderBusyError, type TurnReply, type TypingIndicator } from "./ports.js";
import { replyBody } from "./reply-body.js";
import { turnIdFor } from "./turn-id.js";
import { journaledSteps, unjournaledSteps } from "./turn-steps.js";
import { answerableAfterReading, withReadings } from "./with-readings.js";

// The turn's own steps only cost when run again (a download, the replies, a voice note said): their
// records share the commit of the writes after them, the replies queued among them (StepOptions).
const REPEATABLE: StepOptions = { repeatable: true };

/** The history entry of a "please type" notice (see TurnMediaReader). */
export const MEDIA_NOTICE_ENTRY = "media_notice";

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
  /** The turn failed too often and was set aside unanswered (see TurnJournal.setAside). */
  readonly setAside?: true;
  /** This run picked up a turn an earlier run began (after a failure, crash or shutdown). */
  readonly resumed?: true;
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
  /**
   * Where each turn and its steps are written before they are acted on, so a
   * run that repeats a turn answers the same messages and replays its steps.
   * Optional only for tests that build a processor by hand.
   */
  readonly journal?: TurnJournal;
  /** Reads voice notes, images and documents before the responder runs; optional (then media go unread). */
  readonly media?: TurnMediaReader;
  readonly logger: Logger;
  /** ms since the epoch. */
  readonly now: () => number;
  /** A span per turn, under its first message's webhook and linked to the others'; optional (off). */
  readonly tracing?: Tracing;
}

export interface TurnProcessorOptions {
  /** Most messages read (and so handled as one turn) per run; default 100. */
  readonly maxMessages?: number;
  /** Runs of one turn before it is set aside unanswered; default 5. */
  readonly maxAttempts?: number;
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
 * messages. Each turn is journaled first (see TurnJournal): a run that fails
 * or dies part-way is finished by the next run from the journal, with the
 * same messages, the same turn id and the steps already done replayed; the
 * outbound queue skips parts it already holds. A turn that fails
 * `maxAttempts` times is set aside so the conversation goes on.
 */
export function createTurnProcessor(deps: TurnProcessorDeps, options: TurnProcessorOptions = {}) {
  const maxMessages = options.maxMessages ?? 100;
  const maxAttempts = options.maxAttempts ?? 5;
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
    notice: TurnReply | undefined,
  ) => {
    if (deps.state === undefined) return;
    const entries: HistoryEntry[] = [
      // The media reader looks for this entry to say "please type" at most once an hour.
      ...(notice === undefined
        ? []
        : [{ at: queuedAt, from: "bot" as const, type: MEDIA_NOTICE_ENTRY, text: notice.text }]),
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

  /**
   * One turn. A new turn is journaled (its id and exact messages) before the
   * responder runs; a resumed one answers the journaled messages and replays
   * the steps its earlier runs recorded, the replies included, so nothing is
   * asked of the LLM or a tool twice and the same replies go out once.
   */
  const answer = async (
    tenant: TenantConfig,
    job: TurnJob,
    messages: readonly InboundMessage[],
    resumed: ResumedTurn | undefined,
    inFlight: { turn?: ResumedTurn },
    span: ActiveSpan | undefined,
  ): Promise<HandledTurn> => {
    const traceparent = span?.traceparent;
    // A step of the turn in a span of its own, when the turn has one.
    const inChildSpan = <T>(
      name: string,
      kind: "client" | "internal",
      attributes: SpanAttributes,
      work: () => Promise<T>,
    ): Promise<T> =>
      span === undefined || deps.tracing === undefined
        ? work()
        : deps.tracing.inSpan(name, { kind, parent: traceparent, attributes }, work);
    const wamids = messages.map((message) => message.wamid);
    const turnId = resumed?.turnId ?? turnIdFor(wamids);
    const { journal } = deps;
    if (resumed === undefined) {
      const started = { turnId, messages, startedAt: deps.now() };
      await journal?.begin(job.conversationKey, started);
      inFlight.turn = { ...started, attempts: 1, steps: new Map() };
    } else {
      inFlight.turn = resumed;
    }
    const steps =
      journal === undefined
        ? unjournaledSteps
        : journaledSteps(journal, job.conversationKey, turnId, resumed?.steps ?? new Map());
    const last = messages[messages.length - 1] as InboundMessage;
    // While a human has the conversation (or it is paused) the bot stays silent; the messages still
    // go to the history, for whoever answers.
    const botAnswers = (await deps.state?.mode(job.conversationKey)) ?? "bot";
    span?.setAttributes({ "ss.turn.id": turnId, "ss.conversation.mode": botAnswers });
    // Once per message: a turn that comes back busy must not mark the message read again and again.
    if (botAnswers === "bot" && !typed.has(last.wamid)) {
      rememberTyped(last.wamid);
      const { typing } = deps;
      if (typing !== undefined) {
        await inChildSpan("graph.mark_read", "client", { "ss.tenant": tenant.id }, () =>
          typing.show(tenant, last.phoneNumberId, last.wamid),
        );
      }
    }
    // Journaled like any step: a resumed turn does not download or transcribe again. Read in human
    // mode too, so whoever answers sees the transcript. The pictures for the agent stay out of the
    // journal: a resumed turn answers from the readings alone.
    const { media } = deps;
    const seen: { images?: TurnMediaRead["images"] } = {};
    const read =
      media === undefined || !media.wants(messages)
        ? undefined
        : await steps.once(
            "media",
            () =>
              inChildSpan("media.read", "internal", { "ss.tenant": tenant.id }, async () => {
                const { images, ...readings } = await media.read({
                  tenant,
                  conversationKey: job.conversationKey,
                  messages,
                });
                if (images !== undefined) seen.images = images;
                return readings;
              }),
            REPEATABLE,
          );
    const readMessages = read === undefined ? messages : withReadings(messages, read.readings);
    const notice = botAnswers === "bot" ? read?.notice : undefined;
    const unstale = readMessages.filter((message) => !isStale(message, tenant.staleAfterMs));
    const fresh = answerableAfterReading(unstale);
    const input = {
      tenant,
      conversationKey: job.conversationKey,
      messages: readMessages,
      turnId,
      steps,
      ...(traceparent === undefined ? {} : { traceparent }),
      ...(seen.images === undefined ? {} : { images: seen.images }),
    };
    // Mixed turns answer the fresh messages only: the fresh answer covers the replayed ones too. A
    // turn of nothing but media that could not be read gets the notice alone (or, within the hour of
    // the last notice, nothing). A turn of nothing but stale messages with a notice gets the notice
    // alone too: it already speaks to the customer again, and an apology for the delay on top would
    // be a second line for one old message.
    const nothingToAnswer =
      unstale.length > 0
        ? fresh.length === 0
        : notice !== undefined || answerableAfterReading(readMessages).length === 0;
    const answered: readonly TurnReply[] =
      botAnswers !== "bot" || nothingToAnswer
        ? []
        : await steps.once(
            "replies",
            () =>
              fresh.length === 0
                ? deps.responder.respondToStale(input)
                : deps.responder.respond({ ...input, messages: fresh }),
            REPEATABLE,
          );
    // Journaled: a resumed turn sends the voice notes it already made (their uploaded ids), not new ones.
    const answerInKind = media?.answerInKind;
    const inKind =
      answerInKind === undefined || read === undefined || answered.length === 0
        ? answered
        : await steps.once(
            "voice",
            () =>
              answerInKind({
                tenant,
                phoneNumberId: last.phoneNumberId,
                messages: readMessages,
                replies: answered,
              }),
            REPEATABLE,
          );
    const replies: readonly TurnReply[] = notice === undefined ? inKind : [notice, ...inKind];
    const address = addressOf(last);
    const receivedAt = Math.min(...messages.map((message) => message.receivedAt));
    if (replies.length > 0 && address.to === undefined && address.recipient === undefined) {
      deps.logger.warn({ turnId }, "turn has no customer address; reply dropped");
    } else {
      // Nothing awaited between the check and the queueing: they share one commit (see assertWritesKept).
      journal?.assertWritesKept?.(job.conversationKey, turnId);
      // Idempotent per (turn, part): a resumed turn whose replies were queued queues nothing new.
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
          ...(traceparent === undefined ? {} : { traceparent }),
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
    await journal?.finish(job.conversationKey, turnId);
    inFlight.turn = undefined;
    await appendHistory(job.conversationKey, readMessages, answered, queuedAt, notice);
    return {
      turnId,
      messages: messages.length,
      stale: messages.length - unstale.length,
      replies: replies.length,
      receivedAt,
      queuedAt,
      ...(resumed === undefined ? {} : { resumed: true as const }),
    };
  };

  /**
   * One turn in its span when tracing is on: the child of its first message's
   * webhook span (one trace from the webhook to the send), linked to the
   * webhooks of the turn's other messages.
   */
  const handle = (
    tenant: TenantConfig,
    job: TurnJob,
    messages: readonly InboundMessage[],
    resumed: ResumedTurn | undefined,
    inFlight: { turn?: ResumedTurn },
  ): Promise<HandledTurn> => {
    const tracing = deps.tracing;
    if (tracing === undefined || !tracing.enabled)
      return answer(tenant, job, messages, resumed, inFlight, undefined);
    const parent = messages[0]?.traceparent;
    const others = new Set(messages.map((message) => message.traceparent));
    others.delete(parent);
    return tracing.inSpan(
      "turn",
      {
        kind: "consumer",
        parent,
        links: [...others],
        attributes: {
          "ss.tenant": tenant.id,
          "ss.turn.messages": messages.length,
          "ss.turn.resumed": resumed !== undefined,
        },
      },
      async (span) => {
        const handled = await answer(tenant, job, messages, resumed, inFlight, span);
        span.setAttributes({ "ss.turn.stale": handled.stale, "ss.turn.replies": handled.replies });
        return handled;
      },
    );
  };

  /** Takes a turn that failed too often out of the way: kept for an operator, its messages completed. */
  const setAside = async (job: TurnJob, turn: ResumedTurn, reason: string): Promise<HandledTurn> => {
    const wamids = turn.messages.map((message) => message.wamid);
    await deps.journal?.setAside(job.conversationKey, turn.turnId, reason.slice(0, 500));
    await deps.inbox.complete(job.conversationKey, wamids);
    deps.logger.error(
      { turnId: turn.turnId, attempts: turn.attempts, messages: wamids.length },
      "turn set aside after failing too often; the conversation goes on with its next messages",
    );
    const at = deps.now();
    return {
      turnId: turn.turnId,
      messages: turn.messages.length,
      stale: 0,
      replies: 0,
      receivedAt: Math.min(...turn.messages.map((message) => message.receivedAt)),
      queuedAt: at,
      setAside: true,
    };
  };

  const runLocked = async (tenant: TenantConfig, job: TurnJob): Promise<TurnOutcome> => {
    const handled: HandledTurn[] = [];
    for (;;) {
      const inFlight: { turn?: ResumedTurn } = {};
      try {
        return await runTurns(tenant, job, handled, inFlight);
      } catch (error) {
        const turn = inFlight.turn;
        if (error instanceof ResponderBusyError) {
          // Nothing of the turn ran: the attempt is given back, and the turn runs again shortly.
          if (turn !== undefined) await deps.journal?.release(job.conversationKey, turn.turnId);
          return { kind: "busy", retryAfterMs: error.retryAfterMs };
        }
        if (turn !== undefined && deps.journal?.writesLost?.(job.conversationKey, error) === true) {
          // The disk failed this run, not the turn (a full disk): the attempt is given back, and the job runs
          // again later without spending one of its own, so a full disk does not set a turn aside.
          await deps.journal.release(job.conversationKey, turn.turnId).catch(() => {});
          throw error;
        }
        if (turn === undefined || deps.journal === undefined || turn.attempts < maxAttempts) throw error;
        try {
          handled.push(await setAside(job, turn, error instanceof Error ? error.message : String(error)));
        } catch {
          throw error;
        }
        // The conversation goes on with its next messages, in this run.
      }
    }
  };

  const runTurns = async (
    tenant: TenantConfig,
    job: TurnJob,
    handled: HandledTurn[],
    inFlight: { turn?: ResumedTurn },
  ): Promise<TurnOutcome> => {
    // A turn an earlier run began is finished first, with exactly its messages. Only a run that
    // failed or died leaves one (this run finishes each turn it begins, or fails), so once is enough.
    const resumed = await deps.journal?.resume(job.conversationKey);
    if (resumed !== undefined) {
      // Runs that died (a crash, a kill) never reached runLocked's catch: they are counted here.
      handled.push(
        resumed.attempts > maxAttempts
          ? await setAside(job, resumed, `ran ${resumed.attempts - 1} times without finishing`)
          : await handle(tenant, job, resumed.messages, resumed, inFlight),
      );
    }
    for (;;) {
      const messages = await deps.inbox.read(job.conversationKey, maxMessages);
      if (messages.length === 0) break;
      if (coalescingOn(tenant.coalesce)) {
        const until = coalesceUntil(messages, tenant.coalesce, deps.now());
        if (until !== undefined) return { kind: "postpone", until };
        handled.push(await handle(tenant, job, messages, undefined, inFlight));
        // A full read may have left messages behind: they are the next turn, now. Messages that
        // arrived while this turn ran belong to the next turn (its own job).
        if (messages.length < maxMessages) break;
        continue;
      }
      handled.push(await handle(tenant, job, messages.slice(0, 1), undefined, inFlight));
      // The only message read, and not a full read, is answered: what arrived since is the next turn (its
      // own job), as above, and a read to find the inbox empty would be one more round trip a message.
      if (messages.length === 1 && messages.length < maxMessages) break;
    }
    return handled.length === 0 ? { kind: "empty" } : { kind: "handled", turns: handled };
  };

  return async function processTurn(job: TurnJob): Promise<TurnOutcome> {
    const tenant = deps.tenant(job.tenantId);
    if (tenant === undefined) throw new UnknownTenantError(job.tenantId);
    if (deps.lock === undefined) return runLocked(tenant, job);
    const { lock } = deps;
    const token = await lock.acquire(job.conversationKey);
    if (token === undefined) return { kind: "busy" };
    const stopRenewing = keepLeaseAlive(
      async () => {
        if (!(await lock.extend(job.conversationKey, token))) {
          deps.logger.warn({ tenant: tenant.id }, "a turn lost its conversation lock; it may run twice");
        }
      },
      lock.ttlMs,
      (error) => deps.logger.warn({ err: error }, "could not renew a conversation lock"),
    );
    try {
      return await runLocked(tenant, job);
    } finally {
      stopRenewing();
      await lock.release(job.conversationKey, token);
    }
  };
}

export type TurnProcessor = ReturnType<typeof createTurnProcessor>;
