import type { TenantConfig } from "../config/index.js";
import {
  type AgentToolCall,
  type HistoryEntry,
  TurnJournalError,
  type TurnReply,
  type TurnSteps,
} from "../conversation/index.js";
import { type ActiveSpan, createLineRedactor, type Logger, type Tracing } from "../observability/index.js";
import type { KnowledgeHint, RouterDecision } from "../router/index.js";
import type { AgentMetrics } from "./agent-metrics.js";
import type { AgentSettings } from "./agent-settings.js";
import { CANCEL_PREFIX, CONFIRM_PREFIX } from "./confirm-ids.js";
import type { KnowledgeBase } from "./knowledge.js";
import type { PendingActionStore, TokenBudget } from "./ports.js";
import {
  type ChatContentPart,
  type ChatMessage,
  type LlmClient,
  type LlmCompletion,
  LlmError,
  type LlmUsage,
  type ToolCall,
  type ToolSpec,
} from "./ports.js";
import { buildSystemPrompt } from "./system-prompt.js";

/** The tenant's own HTTP tools, as the agent turn uses them. */
export interface Toolbox {
  /** What the model is offered (the built-ins are added by the turn). */
  readonly specs: readonly ToolSpec[];
  has(name: string): boolean;
  needsConfirm(name: string): boolean;
  hasSideEffects(name: string): boolean;
  describe(name: string): string;
  /** The arguments as the tool will receive them (undeclared properties removed), or why they are invalid. */
  checkArgs(
    name: string,
    args: unknown,
  ):
    | { readonly ok: true; readonly args: Record<string, unknown> }
    | { readonly ok: false; readonly problem: string };
  /** Runs a tool; never throws: failures come back as `ok: false` text for the model. */
  execute(
    name: string,
    args: unknown,
    context: { readonly tenantId: string; readonly customerId: string; readonly idempotencyKey?: string },
    signal: AbortSignal,
  ): Promise<{ readonly ok: boolean; readonly text: string }>;
  idempotencyKey(input: { tenantId: string; turnId: string; toolName: string; callIndex: number }): string;
}

export const HANDOFF_TOOL: ToolSpec = {
  name: "handoff_to_human",
  description:
    "Hand the conversation to a human colleague. Use when the customer asks for a person, or when you cannot help. The customer is told once; you stop answering.",
  parameters: {
    type: "object",
    properties: { reason: { type: "string", description: "Why, in a few words" } },
  },
};

export const KNOWLEDGE_TOOL: ToolSpec = {
  name: "lookup_knowledge",
  description:
    "Search the business's FAQ (prices, hours, delivery, policies). Returns matching entries with their ids.",
  parameters: {
    type: "object",
    required: ["query"],
    properties: { query: { type: "string", description: "What to look up, in a few words" } },
  },
};

export type AgentOutcome = "answered" | "handoff" | "confirm" | "holding" | "fallback" | "budget";

/** Characters of a tool call's arguments or result the console is shown. */
const SHOWN_CALL_CHARS = 2000;

export interface AgentTurnResult {
  readonly replies: readonly TurnReply[];
  readonly outcome: AgentOutcome;
  readonly usage: LlmUsage;
  readonly costUsd: number;
  readonly llmCalls: number;
  readonly toolsCalled: readonly string[];
  /** Each call with its arguments and result, secrets masked: what the console shows. */
  readonly toolCalls: readonly AgentToolCall[];
}

export interface AgentTurnInput {
  readonly tenant: TenantConfig;
  readonly settings: AgentSettings;
  readonly conversationKey: string;
  /** The verified sender (wa_id, or the business-scoped user id): what every tool is told. */
  readonly customerId: string;
  /** The turn's id: part of every idempotency key. */
  readonly turnId: string;
  /** The turn's journaled steps: LLM completions and tool results an earlier run recorded are replayed. */
  readonly steps: TurnSteps;
  /** The turn's coalesced text. */
  readonly text: string;
  /** This turn's pictures as `data:` URLs, sent beside the text as image input (a model with vision). */
  readonly images?: readonly string[];
  readonly history: readonly HistoryEntry[];
  readonly hints?: RouterDecision;
  /** The FAQ tier's best knowledge entries for the turn, when it did not answer itself. */
  readonly knowledgeHints?: readonly KnowledgeHint[];
  /** The handoff message (the tenant's talk_to_human reply). */
  readonly handoffText: string;
  /**
   * A tool the customer just confirmed, and what it returned: given to the model as its own tool
   * call and the tool's message (the tenant API's text is data, never a system instruction).
   */
  readonly confirmed?: {
    readonly toolName: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly summary: string;
    readonly result: string;
  };
  /** Offer the model no tools (the turn after a Confirm only reports the outcome). */
  readonly noTools?: boolean;
  /** This turn's own deadline, ms, when shorter than deps.deadlineMs (time already spent elsewhere). */
  readonly deadlineMs?: number;
  /** The W3C traceparent of the agent turn's span: each LLM and tool call is its child; when tracing is on. */
  readonly traceparent?: string;
}

export interface AgentTurnDeps {
  readonly llm: LlmClient;
  readonly toolbox: (tenant: TenantConfig) => Toolbox;
  readonly knowledge: (tenant: TenantConfig) => KnowledgeBase;
  readonly pending: PendingActionStore;
  readonly budget: TokenBudget;
  readonly metrics?: AgentMetrics;
  readonly logger: Logger;
  readonly deadlineMs: number;
  readonly maxToolSteps: number;
  /** A span per LLM call and per tool call; optional (off). */
  readonly tracing?: Tracing;
}

function historyMessages(history: readonly HistoryEntry[], limit: number): ChatMessage[] {
  return history
    .filter(
      (entry) =>
        entry.text !== undefined &&
        (entry.type === "text" ||
          entry.type === "reply" ||
          entry.type === "interactive" ||
          // A campaign or re-engagement template: a reply to it makes sense only knowing what it said.
          entry.type === "template" ||
          // A voice note's history line holds its transcript.
          entry.type === "audio"),
    )
    .slice(-limit)
    .map((entry) =>
      entry.from === "customer"
        ? {
            role: "user" as const,
            content:
              entry.type === "audio" ? `(voice note, transcribed) ${entry.text}` : (entry.text as string),
          }
        : { role: "assistant" as const, content: entry.text as string },
    );
}

/** The turn's text, with its pictures as OpenAI image parts after it when there are any. */
function userContent(text: string, images: readonly string[]): string | ChatContentPart[] {
  if (images.length === 0) return text;
  return [
    { type: "text", text },
    ...images.map((url): ChatContentPart => ({ type: "image_url", image_url: { url } })),
  ];
}

const CONFIRMED_CALL_ID = "confirmed-call";

type ToolCallResult = { kind: "final"; value: AgentTurnResult } | { kind: "result"; text: string };

/** Characters of tool output one turn gives the model, all calls together (about 8,000 tokens). */
export const TOOL_OUTPUT_PER_TURN = 32_000;
const TOOL_OUTPUT_CUT = " …[cut: this turn's tool output limit is reached]";

function confirmedToolMessages(confirmed: NonNullable<AgentTurnInput["confirmed"]>): ChatMessage[] {
  return [
    {
      role: "system",
      content:
        `The customer tapped Confirm for: ${confirmed.summary}. The tool's result follows as its tool message. ` +
        "Tell the customer the outcome in one or two sentences, in their language.",
    },
    {
      role: "assistant",
      content: null,
      toolCalls: [
        { id: CONFIRMED_CALL_ID, name: confirmed.toolName, arguments: JSON.stringify(confirmed.args) },
      ],
    },
    { role: "tool", toolCallId: CONFIRMED_CALL_ID, content: confirmed.result },
  ];
}

function parseArgs(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw === "" ? "{}" : raw);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function summarize(description: string, args: Readonly<Record<string, unknown>>): string {
  const shown = Object.entries(args)
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");
  return `${description}${shown === "" ? "" : ` (${shown})`}`;
}

const CONFIRM_LEAD = "Abeg confirm make I do this for you: ";
/** Meta's limits: 1,024 characters for an interactive body, 4,096 for a text message. */
const INTERACTIVE_BODY_MAX = 1024;
const TEXT_BODY_MAX = 4096;

/**
 * The Confirm question for a summary, never cut: one interactive message when
 * it fits Meta's limit, else the whole summary as a text message and the
 * buttons after it; undefined when not even a text message can hold it.
 */
function confirmQuestion(summary: string, buttons: TurnReply["buttons"]): TurnReply[] | undefined {
  if (CONFIRM_LEAD.length + summary.length <= INTERACTIVE_BODY_MAX) {
    return [{ text: `${CONFIRM_LEAD}${summary}`, ...(buttons === undefined ? {} : { buttons }) }];
  }
  if (CONFIRM_LEAD.length + summary.length > TEXT_BODY_MAX) return undefined;
  return [
    { text: `${CONFIRM_LEAD}${summary}` },
    { text: "Abeg confirm the request above.", ...(buttons === undefined ? {} : { buttons }) },
  ];
}

/**
 * One agent turn: the tenant's persona and rules, recent history, the turn's
 * text and the router's hints go to the LLM with the tools; up to
 * `maxToolSteps` rounds of tool calls, then an answer. Whatever happens the
 * customer gets exactly one outcome: the answer; the handoff message (and the
 * conversation goes to a human); a Confirm/Cancel question for a tool that
 * needs it; the holding reply when the deadline passes (the LLM call is
 * aborted, so no late answer follows); the fallback reply when the LLM fails;
 * or the budget reply when the tenant's daily tokens are spent.
 */
export async function runAgentTurn(input: AgentTurnInput, deps: AgentTurnDeps): Promise<AgentTurnResult> {
  const { tenant, settings } = input;
  const started = Date.now();
  const toolbox = deps.toolbox(tenant);
  const tools =
    input.noTools === true
      ? []
      : [HANDOFF_TOOL, ...(settings.knowledge.length > 0 ? [KNOWLEDGE_TOOL] : []), ...toolbox.specs];
  const messages: ChatMessage[] = [
    { role: "system", content: buildSystemPrompt(settings, input.hints, input.knowledgeHints) },
    ...historyMessages(input.history, settings.historyMessages),
    { role: "user", content: userContent(input.text, input.images ?? []) },
    ...(input.confirmed === undefined ? [] : confirmedToolMessages(input.confirmed)),
  ];
  let promptTokens = 0;
  let completionTokens = 0;
  let llmCalls = 0;
  const toolsCalled: string[] = [];
  const toolCalls: AgentToolCall[] = [];
  // Built on the first tool call only: most turns call none, and the redactor compiles a pattern.
  let mask: ((line: string) => string) | undefined;
  const shown = (text: string) => {
    mask ??= createLineRedactor([
      ...Object.values(tenant.secrets ?? {}),
      tenant.appSecret,
      ...(tenant.graphToken === undefined ? [] : [tenant.graphToken]),
    ]);
    return mask(text).slice(0, SHOWN_CALL_CHARS);
  };
  const deadline = new AbortController();
  const deadlineMs = Math.max(0, Math.min(deps.deadlineMs, input.deadlineMs ?? deps.deadlineMs));
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  // Side-effect tools that succeeded this turn: a turn that then ends without the model's answer still
  // tells the customer they ran, so nobody asks again (a new turn, a new key, a second effect).
  const sideEffectsDone: string[] = [];
  // How many side-effect calls of each tool this turn has made: the call index of its Idempotency-Key.
  const sideEffectCalls = new Map<string, number>();
  const finish = (outcome: AgentOutcome, given: TurnReply[]): AgentTurnResult => {
    clearTimeout(timer);
    const replies =
      sideEffectsDone.length > 0 && (outcome === "holding" || outcome === "fallback" || outcome === "budget")
        ? given.map((reply) => ({
            ...reply,
            text: `${reply.text}\n✅ Done already: ${sideEffectsDone.join("; ")}.`,
          }))
        : given;
    const costUsd =
      (promptTokens * settings.promptCostPerMillion + completionTokens * settings.completionCostPerMillion) /
      1e6;
    deps.metrics?.turns.inc({ tenant: tenant.id, outcome });
    deps.metrics?.turnSeconds.observe({ tenant: tenant.id }, (Date.now() - started) / 1000);
    if (costUsd > 0) deps.metrics?.costUsd.inc({ tenant: tenant.id }, costUsd);
    return {
      replies,
      outcome,
      usage: { promptTokens, completionTokens },
      costUsd,
      llmCalls,
      toolsCalled,
      toolCalls,
    };
  };
  const toolContext = { tenantId: tenant.id, customerId: input.customerId };
  // Each call's body is capped by the tool; this caps what all of a turn's calls put before the model.
  let toolOutputLeft = TOOL_OUTPUT_PER_TURN;
  const withinTurnShare = (text: string): string => {
    if (text.length <= toolOutputLeft) {
      toolOutputLeft -= text.length;
      return text;
    }
    const kept = text.slice(0, toolOutputLeft);
    toolOutputLeft = 0;
    return `${kept}${TOOL_OUTPUT_CUT}`;
  };

  async function complete(offered: readonly ToolSpec[]): Promise<LlmCompletion | "budget"> {
    const spent = await deps.budget.spentToday(tenant.id);
    const budgetUsed = (tokens: number) =>
      deps.metrics?.budgetUsed.set({ tenant: tenant.id }, tokens / settings.dailyTokenBudget);
    budgetUsed(spent);
    if (spent >= settings.dailyTokenBudget) return "budget";
    const request = {
      messages,
      tools: offered,
      ...(settings.model === undefined ? {} : { model: settings.model }),
    };
    const tracing = deps.tracing;
    const completion =
      tracing === undefined || !tracing.enabled
        ? await deps.llm.complete(request, deadline.signal)
        : await tracing.inSpan(
            settings.model === undefined ? "chat" : `chat ${settings.model}`,
            {
              kind: "client",
              parent: input.traceparent,
              attributes: {
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": settings.model,
                "ss.tenant": tenant.id,
                "ss.llm.tools_offered": offered.length,
              },
            },
            async (span) => {
              const answered = await deps.llm.complete(request, deadline.signal);
              span.setAttributes({
                "gen_ai.response.model": answered.model,
                "gen_ai.usage.input_tokens": answered.usage.promptTokens,
                "gen_ai.usage.output_tokens": answered.usage.completionTokens,
                "ss.llm.provider": answered.provider,
                "ss.llm.tool_calls": answered.toolCalls.length,
              });
              return answered;
            },
          );
    deps.metrics?.llmCalls.inc({ tenant: tenant.id, provider: completion.provider, result: "ok" });
    deps.metrics?.tokens.inc({ tenant: tenant.id, kind: "prompt" }, completion.usage.promptTokens);
    deps.metrics?.tokens.inc({ tenant: tenant.id, kind: "completion" }, completion.usage.completionTokens);
    const used = completion.usage.promptTokens + completion.usage.completionTokens;
    try {
      await deps.budget.record(tenant.id, used);
    } catch (error) {
      // The answer is in hand and paid for: the fallback would cost the customer it, and a run again would
      // pay for it twice. The day's count runs short by these tokens instead (a store refusing writes:
      // Redis at maxmemory, a full disk).
      deps.logger.warn(
        { tenant: tenant.id, err: error, tokens: used },
        "could not count an LLM call's tokens against the daily budget; its answer goes out",
      );
    }
    budgetUsed(spent + used);
    return completion;
  }

  try {
    for (let step = 0; ; step += 1) {
      // The last round offers no tools: the model must answer with what it has.
      const offered = step >= deps.maxToolSteps ? [] : tools;
      // Journaled with its budget check: a resumed turn replays the completion (and its spend) as it was.
      const completion = await input.steps.once(`llm:${step}`, () => complete(offered));
      if (completion === "budget") {
        deps.logger.error(
          { tenant: tenant.id, budget: settings.dailyTokenBudget },
          "ALERT: the tenant's daily LLM token budget is spent; agent turns get the budget reply until midnight UTC",
        );
        return finish("budget", [{ text: settings.budgetExhaustedText }]);
      }
      llmCalls += 1;
      promptTokens += completion.usage.promptTokens;
      completionTokens += completion.usage.completionTokens;

      const calls = offered.length === 0 ? [] : completion.toolCalls;
      if (calls.length === 0) {
        const text = completion.content?.trim();
        return text === undefined || text === ""
          ? finish("fallback", [{ text: settings.fallbackText }])
          : finish("answered", [{ text: text.slice(0, 4096) }]);
      }
      messages.push({ role: "assistant", content: completion.content, toolCalls: calls });
      for (const [index, call] of calls.entries()) {
        const result = await runToolCall(call, `${step}:${index}`);
        toolCalls.push({
          name: toolsCalled[toolsCalled.length - 1] ?? "unknown",
          arguments: shown(call.arguments),
          result: result.kind === "final" ? "(handed to a human)" : shown(result.text),
          ok: result.kind === "final" || !result.text.startsWith("error"),
        });
        if (result.kind === "final") return result.value;
        messages.push({ role: "tool", toolCallId: call.id, content: withinTurnShare(result.text) });
      }
      if (deadline.signal.aborted) return finish("holding", [{ text: settings.holdingText }]);
    }
  } catch (error) {
    // Not the LLM's failure: the turn must fail and run again from its journal, not answer unrecorded.
    if (error instanceof TurnJournalError) {
      clearTimeout(timer);
      throw error;
    }
    if (deadline.signal.aborted) {
      deps.logger.warn({ tenant: tenant.id, deadlineMs }, "agent turn passed its deadline: holding reply");
      return finish("holding", [{ text: settings.holdingText }]);
    }
    const status = error instanceof LlmError ? error.status : undefined;
    deps.metrics?.llmCalls.inc({ tenant: tenant.id, provider: "any", result: "error" });
    deps.logger.error({ tenant: tenant.id, err: error, status }, "LLM call failed: fallback reply");
    return finish("fallback", [{ text: settings.fallbackText }]);
  }

  /** One tool call, in its span when tracing is on (the tool's name as the metrics label it, never its arguments). */
  function runToolCall(call: ToolCall, place: string): Promise<ToolCallResult> {
    // The model may name any tool: a label, a record and a span take only the names the tenant has.
    const known =
      call.name === HANDOFF_TOOL.name || call.name === KNOWLEDGE_TOOL.name || toolbox.has(call.name);
    const toolLabel = known ? call.name : "unknown";
    const tracing = deps.tracing;
    if (tracing === undefined || !tracing.enabled) return callTool(call, place, toolLabel, undefined);
    return tracing.inSpan(
      `execute_tool ${toolLabel}`,
      {
        parent: input.traceparent,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": toolLabel,
          "ss.tenant": tenant.id,
          "ss.tool.side_effects": toolbox.has(call.name) && toolbox.hasSideEffects(call.name),
        },
      },
      (span) => callTool(call, place, toolLabel, span),
    );
  }

  /** `place` names the call in the turn (LLM round and index), for the journal. */
  async function callTool(
    call: ToolCall,
    place: string,
    toolLabel: string,
    span: ActiveSpan | undefined,
  ): Promise<ToolCallResult> {
    toolsCalled.push(toolLabel);
    const args = parseArgs(call.arguments);
    const count = (result: string) => {
      span?.setAttributes({ "ss.tool.result": result });
      deps.metrics?.toolCalls.inc({ tenant: tenant.id, tool: toolLabel, result });
    };
    if (args === undefined) {
      count("error");
      return { kind: "result", text: "error: the arguments were not a JSON object" };
    }
    if (call.name === HANDOFF_TOOL.name) {
      count("ok");
      // The reason is the model's own text, which may repeat the customer's words: debug only.
      deps.logger.info({ tenant: tenant.id }, "agent handed the conversation to a human");
      deps.logger.debug({ tenant: tenant.id, reason: args.reason }, "handoff reason");
      return { kind: "final", value: finish("handoff", [{ text: input.handoffText, handoff: true }]) };
    }
    if (call.name === KNOWLEDGE_TOOL.name && settings.knowledge.length > 0) {
      count("ok");
      const hits = deps.knowledge(tenant).search(String(args.query ?? ""));
      return {
        kind: "result",
        text:
          hits.length === 0
            ? "no matching entries"
            : JSON.stringify(hits.map(({ id, q, a }) => ({ id, q, a }))),
      };
    }
    if (!toolbox.has(call.name)) {
      count("refused");
      return { kind: "result", text: `error: there is no tool named ${call.name}` };
    }
    const checked = toolbox.checkArgs(call.name, args);
    if (!checked.ok) {
      count("error");
      return { kind: "result", text: `error: invalid arguments: ${checked.problem}` };
    }
    // The key names the call (the turn, the tool, its place in the turn), never what the model wrote:
    // a retried turn whose model words the arguments differently repeats the same call, not a new one.
    let idempotencyKey: string | undefined;
    if (toolbox.hasSideEffects(call.name)) {
      const callIndex = sideEffectCalls.get(call.name) ?? 0;
      sideEffectCalls.set(call.name, callIndex + 1);
      idempotencyKey = toolbox.idempotencyKey({
        tenantId: tenant.id,
        turnId: input.turnId,
        toolName: call.name,
        callIndex,
      });
    }
    if (toolbox.needsConfirm(call.name)) {
      // The customer confirms exactly what will be sent: the checked arguments, each shown whole.
      const summary = summarize(toolbox.describe(call.name), checked.args);
      if (confirmQuestion(summary, undefined) === undefined) {
        count("refused");
        return {
          kind: "result",
          text: "error: the request is too long to show the customer for confirmation",
        };
      }
      // Journaled: a resumed turn asks with the same action (the same buttons), never a second one.
      const action = await input.steps.once(`confirm:${place}`, async () => {
        const created = await deps.pending.create(
          input.conversationKey,
          {
            toolName: call.name,
            args: checked.args,
            idempotencyKey: idempotencyKey as string,
            summary,
            createdAt: Date.now(),
          },
          settings.confirmTtlMs,
        );
        count("confirm_asked");
        return created;
      });
      return {
        kind: "final",
        value: finish(
          "confirm",
          confirmQuestion(summary, [
            { id: `${CONFIRM_PREFIX}${action.id}`, title: "Confirm" },
            { id: `${CANCEL_PREFIX}${action.id}`, title: "Cancel" },
          ]) ?? [],
        ),
      };
    }
    // Journaled: a resumed turn reuses the result instead of calling the tenant's API again.
    const outcome = await input.steps.once(`tool:${place}`, async () => {
      const result = await toolbox.execute(
        call.name,
        checked.args,
        idempotencyKey === undefined ? toolContext : { ...toolContext, idempotencyKey },
        deadline.signal,
      );
      count(result.ok ? "ok" : "error");
      return result;
    });
    if (outcome.ok && idempotencyKey !== undefined)
      sideEffectsDone.push(summarize(toolbox.describe(call.name), checked.args));
    return { kind: "result", text: outcome.text };
  }
}
