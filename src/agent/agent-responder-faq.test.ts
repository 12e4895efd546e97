import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import { createLogger } from "../observability/index.js";
import { loadIntentRouter } from "../router/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import { createAgentResponder } from "./agent-responder.js";
import { createKnowledgeBase } from "./knowledge.js";
import type { LlmClient, LlmRequest } from "./ports.js";

const KNOWLEDGE = [
  {
    id: "delivery-fee",
    q: "How much is delivery?",
    a: "₦1,000 within Yaba, ₦2,000 elsewhere on the mainland.",
  },
  { id: "hours", q: "What time do you open and close?", a: "8am to 9pm, Monday to Saturday." },
];

const tenant = (faq: Record<string, unknown>) =>
  ({ id: "shop", settings: { knowledge: KNOWLEDGE, router: { faq } } }) as unknown as TenantConfig;

const message = (text: string): InboundMessage =>
  ({
    tenantId: "shop",
    phoneNumberId: "1",
    wabaId: "1",
    conversationKey: "shop:1:234",
    wamid: `w-${text}`,
    timestamp: 1,
    receivedAt: 1000,
    type: "text",
    customer: { waId: "2348012345678" },
    text,
  }) as InboundMessage;

/** The agent responder with stub stores, recording what the LLM was asked. */
function responderFor(config: TenantConfig) {
  const seen: LlmRequest[] = [];
  const llm: LlmClient = {
    async complete(request) {
      seen.push(request);
      return {
        content: "Delivery na ₦1,000 for Yaba.",
        toolCalls: [],
        usage: { promptTokens: 1, completionTokens: 1 },
        provider: "primary",
        model: "stub",
      };
    },
  };
  const responder = createAgentResponder([config], {
    llm,
    router: loadIntentRouter(),
    state: { recent: async () => [], append: async () => {}, markPriority: async () => {} } as never,
    slots: {
      acquire: async () => "t",
      extend: async () => true,
      release: async () => {},
      leaseMs: 30_000,
    } as never,
    pending: {} as never,
    budget: { spentToday: async () => 0, record: async () => {} },
    toolbox: () =>
      ({ specs: [], has: () => false, needsConfirm: () => false, hasSideEffects: () => false }) as never,
    knowledge: () => createKnowledgeBase(KNOWLEDGE),
    logger: createLogger({ level: "silent" }),
    deadlineMs: 5000,
    maxToolSteps: 3,
  });
  const respond = (text: string) =>
    responder.respond({ tenant: config, conversationKey: "shop:1:234", messages: [message(text)] });
  return { seen, respond };
}

describe("the FAQ tier in front of the agent", () => {
  it("answers a close question locally when the tenant turned it on, without the LLM", async () => {
    const { seen, respond } = responderFor(tenant({ answerLocally: true }));
    expect(await respond("how much is delivery to lekki")).toEqual([{ text: KNOWLEDGE[0]?.a }]);
    expect(seen).toHaveLength(0);
  });

  it("gives the agent the best entries as hints when it does not answer", async () => {
    const { seen, respond } = responderFor(tenant({}));
    await respond("wetin be una delivery fee");
    expect(seen).toHaveLength(1);
    const system = seen[0]?.messages[0];
    expect(system?.role).toBe("system");
    expect(String(system?.content)).toContain("[delivery-fee] Q: How much is delivery?");
  });
});
