import { beforeAll, describe, expect, it } from "vitest";
import type { TenantConfig } from "../../config/index.js";
import type { InboundMessage } from "../../whatsapp/index.js";
import { routeTurn } from "../first-responder.js";
import { type IntentRouter, loadIntentRouter } from "../intent-router.js";
import { type ResponderSettings, resolveResponderSettings } from "../responder-settings.js";
import { isConfidentHit } from "./faq-tier.js";
import { withTenantTiers } from "./tenant-tiers.js";

const KNOWLEDGE = [
  {
    id: "delivery-fee",
    q: "How much is delivery?",
    a: "Delivery is ₦1,000 within Yaba and ₦2,000 for the rest of Lagos mainland. Island na ₦3,500.",
  },
  {
    id: "hours",
    q: "What time do you open and close?",
    a: "We open 8am to 9pm Monday to Saturday, 12pm to 8pm on Sunday.",
  },
  {
    id: "payment",
    q: "How can I pay?",
    a: "Pay by transfer to our Moniepoint account, card on delivery, or cash.",
  },
  {
    id: "location",
    q: "Where is your shop?",
    a: "12 Herbert Macaulay Way, Yaba, opposite the filling station.",
  },
  {
    id: "catering",
    q: "Do you do catering for parties and events?",
    a: "Yes: tell us the date, number of guests and the food, and we send a quote within a day.",
  },
  {
    id: "refund",
    q: "What is your refund policy?",
    a: "If your food arrives wrong or spoilt, send a photo within 1 hour and we replace it or refund you.",
  },
];

const tenant = (faq: Record<string, unknown>): TenantConfig =>
  ({
    id: "mama-put",
    // Only the FAQ tier answers here: no classifier intent is enabled.
    settings: { knowledge: KNOWLEDGE, router: { faq, enabledIntents: [] } },
  }) as unknown as TenantConfig;

let seq = 0;
const message = (text: string): InboundMessage =>
  ({
    tenantId: "mama-put",
    phoneNumberId: "1",
    wabaId: "1",
    conversationKey: "mama-put:1:234",
    wamid: `f${seq++}`,
    timestamp: 1,
    receivedAt: 1000,
    type: "text",
    customer: { waId: "234" },
    text,
  }) as InboundMessage;

describe("the FAQ tier", () => {
  let router: IntentRouter;
  let local: ResponderSettings;
  beforeAll(() => {
    router = loadIntentRouter();
    local = withTenantTiers("mama-put", resolveResponderSettings(tenant({ answerLocally: true })), undefined);
  });

  it("answers a close question with the entry's answer", () => {
    const routed = routeTurn(local, [message("wetin be una delivery fee")], router);
    expect(routed).toMatchObject({
      tier: "faq",
      intent: "faq:delivery-fee",
      reply: { text: KNOWLEDGE[0]?.a },
    });
    expect(routeTurn(local, [message("can I pay with card")], router)).toMatchObject({
      intent: "faq:payment",
    });
  });

  it("hands a vague message to the agent with the best entries as hints", () => {
    const routed = routeTurn(local, [message("I get question")], router);
    expect(routed.tier).toBe("fallback");
    expect(routed.reply).toEqual(local.fallback);
    expect(routed.knowledgeHints?.length).toBeGreaterThan(0);
    expect(routed.knowledgeHints?.[0]).toMatchObject({ id: expect.any(String), q: expect.any(String) });
  });

  it("only gives hints when the tenant has not turned local answers on (the default)", () => {
    const off = withTenantTiers("mama-put", resolveResponderSettings(tenant({})), undefined);
    expect(off.faq).toMatchObject({ answerLocally: false, minScore: 10, minMargin: 0.5 });
    const routed = routeTurn(off, [message("wetin be una delivery fee")], router);
    expect(routed.tier).toBe("fallback");
    expect(routed.knowledgeHints?.[0]?.id).toBe("delivery-fee");
  });

  it("leaves a message the abstain layer holds back to the agent, with hints", () => {
    const text = "that no answer my question, how much is delivery";
    const faq = local.tiers?.faq;
    if (faq === undefined) throw new Error("no FAQ tier");
    // Retrieval alone would answer it.
    expect(isConfidentHit(faq.knowledge.search(text, 3), faq.settings)).toBe(true);
    const routed = routeTurn(local, [message(text)], router);
    expect(routed.tier).toBe("fallback");
    expect(routed.knowledgeHints?.[0]?.id).toBe("delivery-fee");
  });

  it("leaves a message the classifier says needs the agent to the agent", () => {
    const text =
      "una delivery fee na ₦1,000 but una charge me ₦3,500 and the rider collect another ₦500, who I go report to?";
    expect(router.classify(text).needsAgentFirst).toBe(true);
    const routed = routeTurn(local, [message(text)], router);
    expect(routed.tier).toBe("fallback");
    expect(routed.knowledgeHints?.[0]?.id).toBe("delivery-fee");
  });

  it("is off for a tenant without knowledge entries", () => {
    const none = withTenantTiers(
      "x",
      resolveResponderSettings({ id: "x", settings: {} } as unknown as TenantConfig),
      undefined,
    );
    expect(none.tiers).toBeUndefined();
    expect(routeTurn(none, [message("wetin be una delivery fee")], router).knowledgeHints).toBeUndefined();
  });
});
