import type { TenantConfig } from "../config/index.js";
import {
  type ConversationStateStore,
  keepLeaseAlive,
  type Responder,
  ResponderBusyError,
  type TurnDecision,
  type TurnDecisionHook,
  type TurnInput,
  type TurnReply,
  turnIdFor,
  unjournaledSteps,
} from "../conversation/index.js";
import { tracingOff } from "../observability/index.js";
import type { CustomIntentsContext, IntentRouter, RouterMetrics } from "../router/index.js";
import {
  customIntentsContext,
  type ResponderSettings,
  resolveResponderSettings,
  routeAskOnceAndCount,
  staleReply,
  staleTurnDecision,
  turnDecisionOf,
  withTenantTiers,
} from "../router/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import { type AgentSettings, resolveAgentSettings } from "./agent-settings.js";
import { type AgentTurnDeps, type AgentTurnInput, type AgentTurnResult, runAgentTurn } from "./agent-turn.js";
import { CANCEL_PREFIX, CONFIRM_PREFIX } from "./confirm-ids.js";
import type { LlmClient, TenantSlots } from "./ports.js";

export interface AgentResponderDeps extends Omit<AgentTurnDeps, "llm"> {
  /** Undefined: no LLM configured; what the router cannot answer gets the fallback reply. */
  readonly llm: LlmClient | undefined;
  readonly router?: IntentRouter;
  readonly routerMetrics?: RouterMetrics;
  /** Where tenants' trained custom-intent files are and how training at start is logged (router.custom). */
  readonly customIntents?: Omit<CustomIntentsContext, "router" | "lexicon">;
  readonly state: ConversationStateStore;
  readonly slots: TenantSlots;
  /** Told each turn's decision and, for agent turns, its usage (the message log records it); optional. */
  readonly onTurnDecision?: TurnDecisionHook;
}

/** Money on the line: these conversations' next turns run first for a while (scheduler priority 1). */
const URGENT_INTENTS: ReadonlySet<string> = new Set(["checkout_payment", "failed_transaction"]);
const URGENT_FOR_MS = 30 * 60_000;

/** A turn that finds its tenant's agent slots full runs again after 0.5–1 s. */
const BUSY_RETRY_MS = 500;

const EXPIRED_TEXT = "That request don expire or e don already run. Abeg ask me again if you still need am.";
const CANCELLED_TEXT = "No wahala, I no go do am. Anything else I fit help you with?";

/** A message whose media the worker read, as the model reads it: what was said or seen, marked as such. */
const UNOPENED_NAMES = {
  audio: "voice note",
  image: "picture",
  document: "file",
  video: "video",
  sticker: "sticker",
} as const;

function readingText(message: InboundMessage): string | undefined {
  const reading = message.reading as NonNullable<InboundMessage["reading"]>;
  if (reading.transcript !== undefined) return `(voice note, transcribed) ${reading.transcript.text}`;
  const lines: string[] = [];
  if (reading.failure !== undefined && reading.description === undefined) {
    lines.push(`(the ${UNOPENED_NAMES[reading.kind]} the customer sent could not be opened)`);
  }
  if (reading.description !== undefined) lines.push(reading.description);
  if (reading.receipt !== undefined)
    lines.push(`(transfer receipt read from the picture: ${JSON.stringify(reading.receipt)})`);
  if (reading.extractedText !== undefined) {
    const name = reading.fileName === undefined ? "" : ` ${JSON.stringify(reading.fileName)}`;
    lines.push(`(text of the file${name}) ${reading.extractedText}`);
  }
  if (message.text !== undefined && message.type !== "audio") lines.push(message.text);
  return lines.join("\n");
}

function customerIdOf(message: InboundMessage): string | undefined {
  return message.customer.waId ?? message.customer.userId;
}

function turnText(messages: readonly InboundMessage[]): string {
  return messages
    .flatMap((message) => {
      const text = message.reading === undefined ? message.text : readingText(message);
      return text === undefined ? [] : [text];
    })
    .join("\n")
    .slice(0, 4000);
}

/** The pictures of the messages being answered that this run holds (the media reader bounds them). */
function turnImages(turn: TurnInput): string[] {
  const { images } = turn;
  if (images === undefined) return [];
  return turn.messages.flatMap((message) => {
    const image = images[message.wamid];
    return image === undefined ? [] : [image.dataUrl];
  });
}

/** What a router span says of its decision: the tier, the intent and how sure it was, never the text. */
function routerAttributes(turn: TurnInput, routed: Parameters<typeof turnDecisionOf>[1]) {
  const decision = turnDecisionOf(turn, routed);
  return {
    "ss.router.tier": decision.tier,
    "ss.router.intent": decision.intent,
    "ss.router.confidence": decision.confidence,
    "ss.router.resolved": decision.resolved,
    "ss.router.language": routed.decision?.language,
  };
}

/**
 * The whole responder: the router first (reply ids, rules, the classifier),
 * then the LLM agent for what it leaves, within the tenant's agent slots
 * (busy slots: the turn runs again shortly). Confirm/Cancel taps on a pending
 * tool call are handled here, for the conversation they were asked in only.
 */
export function createAgentResponder(tenants: readonly TenantConfig[], deps: AgentResponderDeps): Responder {
  const context = customIntentsContext(deps.router, deps.customIntents);
  const responderSettings = new Map(
    tenants.map((tenant) => [
      tenant.id,
      withTenantTiers(tenant.id, resolveResponderSettings(tenant), context),
    ]),
  );
  const tracing = deps.tracing ?? tracingOff;
  const agentSettings = new Map(tenants.map((tenant) => [tenant.id, resolveAgentSettings(tenant)]));
  const settingsOf = (tenant: TenantConfig): [ResponderSettings, AgentSettings] => [
    responderSettings.get(tenant.id) ?? resolveResponderSettings(tenant),
    agentSettings.get(tenant.id) ?? resolveAgentSettings(tenant),
  ];

  const withSlot = async (
    tenant: TenantConfig,
    settings: AgentSettings,
    run: () => Promise<AgentTurnResult>,
  ) => {
    const token = await deps.slots.acquire(tenant.id, settings.agentConcurrency);
    if (token === undefined) {
      deps.metrics?.turns.inc({ tenant: tenant.id, outcome: "busy" });
      // Spread the retries: a flood's turns must not all come back in the same instant.
      throw new ResponderBusyError(
        `tenant ${tenant.id}: all ${settings.agentConcurrency} agent slots busy`,
        BUSY_RETRY_MS + Math.floor(Math.random() * BUSY_RETRY_MS),
      );
    }
    const stopRenewing = keepLeaseAlive(
      () => deps.slots.extend(tenant.id, token),
      deps.slots.leaseMs,
      (error) => deps.logger.warn({ err: error, tenant: tenant.id }, "could not renew an agent slot"),
    );
    try {
      return await run();
    } finally {
      stopRenewing();
      // A failed release must not fail a finished turn (its retry would call the LLM and tools again);
      // the slot's lease runs out on its own.
      await deps.slots.release(tenant.id, token).catch((error: unknown) => {
        deps.logger.warn(
          { err: error, tenant: tenant.id },
          "could not release an agent slot; its lease will expire",
        );
      });
    }
  };

  const record = async (decision: TurnDecision, result: AgentTurnResult) => {
    const agent = {
      outcome: result.outcome,
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
      costUsd: result.costUsd,
      llmCalls: result.llmCalls,
      tools: result.toolsCalled,
    };
    try {
      await deps.state.append(decision.turn.conversationKey, [
        { at: Date.now(), from: "bot", type: "agent_turn", agent },
      ]);
    } catch (error) {
      deps.logger.warn({ err: error }, "could not record the agent turn in the history");
    }
    // A result replayed from a journal written before tool calls were kept has none.
    await deps.onTurnDecision?.({ ...decision, agent, toolCalls: result.toolCalls ?? [] });
  };

  /**
   * One agent turn inside one of the tenant's slots. `prepare` runs inside the
   * slot first (the confirm path runs its tool there) and adds to the turn's
   * input. `decision` is what led to the agent, reported with its usage.
   */
  const agentTurn = async (
    decision: TurnDecision,
    settings: [ResponderSettings, AgentSettings],
    llm: LlmClient,
    customerId: string,
    /** Given the agent turn's traceparent, for a span of what it runs. */
    prepare: (traceparent: string | undefined) => Promise<Partial<AgentTurnInput>>,
  ): Promise<readonly TurnReply[]> => {
    const { turn } = decision;
    const [responder, agent] = settings;
    const result = await withSlot(turn.tenant, agent, () =>
      tracing.inSpan(
        "agent.turn",
        { parent: turn.traceparent, attributes: { "ss.tenant": turn.tenant.id } },
        async (span) => {
          const ran = await agentRun(span.traceparent);
          span.setAttributes({
            "ss.agent.outcome": ran.outcome,
            "ss.agent.llm_calls": ran.llmCalls,
            "gen_ai.usage.input_tokens": ran.usage.promptTokens,
            "gen_ai.usage.output_tokens": ran.usage.completionTokens,
          });
          return ran;
        },
      ),
    );
    await record(decision, result);
    return result.replies;

    async function agentRun(traceparent: string | undefined): Promise<AgentTurnResult> {
      const extra = await prepare(traceparent);
      return runAgentTurn(
        {
          tenant: turn.tenant,
          settings: agent,
          conversationKey: turn.conversationKey,
          customerId,
          turnId: turn.turnId ?? turnIdFor(turn.messages.map((message) => message.wamid)),
          steps: turn.steps ?? unjournaledSteps,
          text: turnText(turn.messages),
          images: turnImages(turn),
          history: await deps.state.recent(turn.conversationKey, agent.historyMessages),
          handoffText: responder.replies.talk_to_human?.text ?? responder.fallback.text,
          ...(traceparent === undefined ? {} : { traceparent }),
          ...extra,
        },
        { ...deps, llm },
      );
    }
  };

  /**
   * A Confirm or Cancel tap. The claim is tied to the tap's message, so a
   * retried turn finds its own claim again (and runs the tool again with the
   * same idempotency key: one effect) instead of losing the confirmation.
   * The tool and the report of its outcome share one deadline and one agent
   * slot, and the report offers the model no tools.
   */
  const confirmation = async (
    turn: TurnInput,
    settings: [ResponderSettings, AgentSettings],
    tap: InboundMessage,
    replyId: string,
    customerId: string | undefined,
  ): Promise<readonly TurnReply[]> => {
    const [responder] = settings;
    const confirming = replyId.startsWith(CONFIRM_PREFIX);
    const id = replyId.slice((confirming ? CONFIRM_PREFIX : CANCEL_PREFIX).length);
    const decision: TurnDecision = {
      turn,
      tier: "confirm",
      intent: confirming ? "confirm" : "cancel",
      confidence: 1,
      resolved: true,
    };
    const claim = await deps.pending.claim(turn.conversationKey, id, tap.wamid);
    const llm = deps.llm;
    if (claim.kind !== "claimed" || !confirming || llm === undefined || customerId === undefined) {
      await deps.onTurnDecision?.(decision);
      if (claim.kind !== "claimed") return [{ text: EXPIRED_TEXT }];
      return confirming ? [responder.fallback] : [{ text: CANCELLED_TEXT }];
    }
    const action = claim.action;
    const customer = customerId;
    return agentTurn(decision, settings, llm, customer, async (traceparent) => {
      const started = Date.now();
      // Journaled: a resumed confirmation reports the tool's first result instead of calling it again.
      const outcome = await (turn.steps ?? unjournaledSteps).once("confirmed-tool", () =>
        tracing.inSpan(
          `execute_tool ${action.toolName}`,
          {
            parent: traceparent,
            attributes: {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": action.toolName,
              "ss.tenant": turn.tenant.id,
              "ss.tool.confirmed": true,
            },
          },
          async (span) => {
            const ran = await runConfirmed();
            span.setAttributes({ "ss.tool.result": ran.ok ? "ok" : "error" });
            return ran;
          },
        ),
      );
      async function runConfirmed() {
        const result = await deps
          .toolbox(turn.tenant)
          .execute(
            action.toolName,
            action.args,
            { tenantId: turn.tenant.id, customerId: customer, idempotencyKey: action.idempotencyKey },
            AbortSignal.timeout(deps.deadlineMs),
          );
        deps.metrics?.toolCalls.inc({
          tenant: turn.tenant.id,
          tool: action.toolName,
          result: result.ok ? "ok" : "error",
        });
        return result;
      }
      return {
        confirmed: {
          toolName: action.toolName,
          args: action.args,
          summary: action.summary,
          result: outcome.text.slice(0, 2000),
        },
        noTools: true,
        deadlineMs: deps.deadlineMs - (Date.now() - started),
      };
    });
  };

  return {
    async respond(turn) {
      const settings = settingsOf(turn.tenant);
      const [responder] = settings;
      const last = turn.messages[turn.messages.length - 1] as InboundMessage;
      const customerId = customerIdOf(last);
      // Only a tap that is the turn's last message decides: "Confirm" then "abeg no, wrong order" is not a yes.
      const replyId = last.replyId;
      if (
        replyId !== undefined &&
        (replyId.startsWith(CONFIRM_PREFIX) || replyId.startsWith(CANCEL_PREFIX))
      ) {
        return confirmation(turn, settings, last, replyId, customerId);
      }
      // Asks for missing slots once per intent; the ask is remembered in the conversation's history.
      const routed = await tracing.inSpan(
        "router.decide",
        { parent: turn.traceparent, attributes: { "ss.tenant": turn.tenant.id } },
        async (span) => {
          const result = await routeAskOnceAndCount(responder, turn, {
            router: deps.router,
            metrics: deps.routerMetrics,
            state: deps.state,
            onError: (error) => deps.logger.warn({ err: error }, "could not read or record a slot question"),
          });
          if (tracing.enabled) span.setAttributes(routerAttributes(turn, result));
          return result;
        },
      );
      if (routed.decision !== undefined && URGENT_INTENTS.has(routed.decision.intent)) {
        await deps.state.markPriority(turn.conversationKey, Date.now() + URGENT_FOR_MS);
      }
      const decision = turnDecisionOf(turn, routed);
      if (
        routed.tier !== "fallback" ||
        deps.llm === undefined ||
        customerId === undefined ||
        turnText(turn.messages) === ""
      ) {
        await deps.onTurnDecision?.(decision);
        // For the fallback tier this is the tenant's fallback reply.
        return [routed.reply];
      }
      return agentTurn({ ...decision, tier: "agent" }, settings, deps.llm, customerId, async () => ({
        ...(routed.decision === undefined ? {} : { hints: routed.decision }),
        ...(routed.knowledgeHints === undefined ? {} : { knowledgeHints: routed.knowledgeHints }),
      }));
    },
    async respondToStale(turn) {
      await deps.onTurnDecision?.(staleTurnDecision(turn));
      return [staleReply(settingsOf(turn.tenant)[0], turn, deps.router)];
    },
  };
}
