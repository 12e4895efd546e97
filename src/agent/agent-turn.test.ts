import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import { unjournaledSteps } from "../conversation/index.js";
import { createLogger } from "../observability/index.js";
import { createAgentMetrics } from "./agent-metrics.js";
import { resolveAgentSettings } from "./agent-settings.js";
import { runAgentTurn, TOOL_OUTPUT_PER_TURN, type Toolbox } from "./agent-turn.js";
import type { ChatMessage, LlmClient, LlmRequest } from "./ports.js";

const tenant = {
  id: "shop",
  appSecret: "s",
  verifyToken: "v",
  graphToken: "g",
  phoneNumberIds: [],
  coalesce: { windowMs: 0, maxMs: 0 },
  staleAfterMs: 3_600_000,
  settings: {},
} as unknown as TenantConfig;

/** A tenant API that answers every call with 20,000 characters. */
const chattyToolbox: Toolbox = {
  specs: [{ name: "order_history", description: "Past orders", parameters: { type: "object" } }],
  has: (name) => name === "order_history",
  needsConfirm: () => false,
  hasSideEffects: () => false,
  describe: () => "Past orders",
  checkArgs: (_name, args) => ({ ok: true, args: args as Record<string, unknown> }),
  execute: async () => ({ ok: true, text: "x".repeat(20_000) }),
  idempotencyKey: () => "ss-unused",
};

describe("runAgentTurn: the turn's share of tool output", () => {
  it("gives the model at most TOOL_OUTPUT_PER_TURN characters of tool output in all, however many calls", async () => {
    const seen: LlmRequest[] = [];
    const llm: LlmClient = {
      async complete(request) {
        seen.push(request);
        const calls =
          seen.length <= 3 ? [{ id: `c${seen.length}`, name: "order_history", arguments: "{}" }] : [];
        return {
          content: calls.length === 0 ? "Here is your history." : null,
          toolCalls: calls,
          usage: { promptTokens: 1, completionTokens: 1 },
          provider: "primary",
          model: "stub",
        };
      },
    };
    const result = await runAgentTurn(
      {
        tenant,
        settings: resolveAgentSettings(tenant),
        conversationKey: "shop:1:2348012345678",
        customerId: "2348012345678",
        turnId: "turn-x",
        steps: unjournaledSteps,
        text: "show me all my orders",
        history: [],
        handoffText: "a human will answer",
      },
      {
        llm,
        toolbox: () => chattyToolbox,
        knowledge: () => ({ search: () => [] }) as never,
        pending: {} as never,
        budget: { spentToday: async () => 0, record: async () => {} },
        logger: createLogger({ level: "silent" }),
        deadlineMs: 5000,
        maxToolSteps: 5,
      },
    );
    expect(result.outcome).toBe("answered");
    const last = seen[seen.length - 1] as LlmRequest;
    const toolText = last.messages
      .filter((message): message is Extract<ChatMessage, { role: "tool" }> => message.role === "tool")
      .map((message) => message.content);
    expect(toolText).toHaveLength(3);
    expect(toolText[0]).toHaveLength(20_000);
    expect(toolText[1]).toContain("tool output limit");
    expect(toolText[2]).toBe(" …[cut: this turn's tool output limit is reached]");
    const total = toolText.join("").replaceAll(/ …\[cut[^\]]*\]/g, "").length;
    expect(total).toBe(TOOL_OUTPUT_PER_TURN);
  });
});

describe("runAgentTurn: the budget gauge", () => {
  const answering: LlmClient = {
    async complete() {
      return {
        content: "Done.",
        toolCalls: [],
        usage: { promptTokens: 50_000, completionTokens: 10_000 },
        provider: "primary",
        model: "stub",
      };
    },
  };
  const turnWith = async (
    spent: number,
    record: (tenantId: string, tokens: number) => Promise<void> = async () => {},
  ) => {
    const metrics = createAgentMetrics(new Registry());
    const result = await runAgentTurn(
      {
        tenant,
        settings: resolveAgentSettings(tenant),
        conversationKey: "shop:1:2348012345678",
        customerId: "2348012345678",
        turnId: "turn-b",
        steps: unjournaledSteps,
        text: "hello",
        history: [],
        handoffText: "a human will answer",
      },
      {
        llm: answering,
        toolbox: () => chattyToolbox,
        knowledge: () => ({ search: () => [] }) as never,
        pending: {} as never,
        budget: { spentToday: async () => spent, record },
        logger: createLogger({ level: "silent" }),
        deadlineMs: 5000,
        maxToolSteps: 5,
        metrics,
      },
    );
    const gauge = await metrics.budgetUsed.get();
    return {
      outcome: result.outcome,
      replies: result.replies.map((reply) => reply.text),
      values: gauge.values.map(({ labels, value }) => ({ labels, value })),
    };
  };

  it("sets ss_agent_token_budget_used_ratio to the share spent after the turn's LLM calls", async () => {
    // The default budget is 2,000,000 tokens: 1,800,000 spent before, 60,000 by this turn.
    const { outcome, values } = await turnWith(1_800_000);
    expect(outcome).toBe("answered");
    expect(values).toEqual([{ labels: { tenant: "shop" }, value: 0.93 }]);
  });

  it("reads 1 or more once the budget is spent, and the turn gets the budget reply", async () => {
    const { outcome, values } = await turnWith(2_000_000);
    expect(outcome).toBe("budget");
    expect(values).toEqual([{ labels: { tenant: "shop" }, value: 1 }]);
  });

  it("sends the model's answer when its tokens cannot be counted (the store refuses writes), not the fallback", async () => {
    const refused = Object.assign(new Error("OOM command not allowed when used memory > 'maxmemory'"), {
      name: "ReplyError",
    });
    const { outcome, replies } = await turnWith(1_000, async () => {
      throw refused;
    });
    expect(outcome).toBe("answered");
    expect(replies).toEqual(["Done."]);
  });
});

describe("runAgentTurn: the history the model sees", () => {
  it("includes a template the customer was sent (a campaign they reply to) as the business's message", async () => {
    const seen: LlmRequest[] = [];
    const llm: LlmClient = {
      async complete(request) {
        seen.push(request);
        return { content: "Yes.", toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 } } as never;
      },
    };
    await runAgentTurn(
      {
        tenant,
        settings: resolveAgentSettings(tenant),
        conversationKey: "shop:1:2348012345678",
        customerId: "2348012345678",
        turnId: "turn-t",
        steps: unjournaledSteps,
        text: "Is it on sneakers too?",
        history: [
          { at: 1, from: "bot", type: "template", text: "Hi Amaka, 20% off today!", wamid: "wamid.T" },
          { at: 2, from: "bot", type: "agent_turn" },
        ],
        handoffText: "a human will answer",
      },
      {
        llm,
        toolbox: () => chattyToolbox,
        knowledge: () => ({ search: () => [] }) as never,
        pending: {} as never,
        budget: { spentToday: async () => 0, record: async () => {} },
        logger: createLogger({ level: "silent" }),
        deadlineMs: 5000,
        maxToolSteps: 5,
      },
    );
    const messages = (seen[0] as LlmRequest).messages.filter((message) => message.role !== "system");
    expect(messages).toEqual([
      { role: "assistant", content: "Hi Amaka, 20% off today!" },
      { role: "user", content: "Is it on sneakers too?" },
    ]);
  });
});
