import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import { ResponderSettingsError } from "./errors.js";
import { createFirstResponder, normalizeForRules, routeTurn } from "./first-responder.js";
import { resolveResponderSettings } from "./responder-settings.js";

const tenant = (settings: Record<string, unknown> = {}): TenantConfig => ({
  id: "mama-put",
  appSecret: "s",
  verifyToken: "v",
  graphToken: "g",
  phoneNumberIds: ["106540352242922"],
  throughputMps: 80,
  coalesce: { windowMs: 0, maxMs: 0 },
  staleAfterMs: 3_600_000,
  settings,
});

let seq = 0;
const msg = (fields: Partial<InboundMessage>): InboundMessage => ({
  tenantId: "mama-put",
  phoneNumberId: "106540352242922",
  wabaId: "1",
  conversationKey: "mama-put:106540352242922:234",
  wamid: `w${seq++}`,
  timestamp: 1,
  receivedAt: 1000,
  type: "text",
  customer: { waId: "234" },
  ...fields,
});

const mamaPut = tenant({
  router: {
    rules: [{ match: "^(menu|price list)$", intent: "product_inquiry" }],
    replyIds: { btn_menu: "product_inquiry" },
  },
  replies: {
    product_inquiry: { text: "Jollof ₦2,500, Fried rice ₦2,800" },
    greeting: { text: "How far! Na Ada." },
  },
  fallback: { text: "Abeg give me small time." },
});

describe("routeTurn", () => {
  const settings = resolveResponderSettings(mamaPut);

  it("maps tenant rules, default rules and reply ids to intents", () => {
    expect(routeTurn(settings, [msg({ text: "Menu!" })]).intent).toBe("product_inquiry");
    expect(routeTurn(settings, [msg({ text: "How far?" })]).reply.text).toBe("How far! Na Ada.");
    expect(routeTurn(settings, [msg({ text: "thank you o" })]).intent).toBe("thanks_goodbye");
    expect(routeTurn(settings, [msg({ text: "abeg make I talk to a human" })]).intent).toBe("talk_to_human");
    expect(
      routeTurn(settings, [msg({ type: "interactive", text: "Menu", replyId: "btn_menu" })]).intent,
    ).toBe("product_inquiry");
    expect(
      routeTurn(settings, [msg({ type: "interactive", text: "x", replyId: "talk_to_human" })]).intent,
    ).toBe("talk_to_human");
  });

  it("lets the turn's last message decide; no match gets the fallback", () => {
    const turn = [
      msg({ text: "Hello" }),
      msg({ text: "my money never drop" }),
      msg({ text: "abeg check am" }),
    ];
    expect(routeTurn(settings, turn)).toEqual({
      intent: undefined,
      reply: { text: "Abeg give me small time." },
    });
    expect(routeTurn(settings, [msg({ text: "my order" }), msg({ text: "hi" })]).intent).toBe("greeting");
    expect(routeTurn(settings, [msg({ type: "image" })]).intent).toBeUndefined();
  });

  it("does not call a greeting with a request in it a greeting", () => {
    expect(routeTurn(settings, [msg({ text: "hello, my transfer failed" })]).intent).toBeUndefined();
  });
});

describe("defaults and settings errors", () => {
  it("answers with the shipped defaults when the tenant configures nothing", async () => {
    const responder = createFirstResponder([tenant()]);
    const input = { tenant: tenant(), conversationKey: "k", messages: [msg({ text: "hi" })] };
    const [greeting] = await responder.respond(input);
    expect(greeting?.buttons).toEqual([{ id: "talk_to_human", title: "Talk to a person" }]);
    const [stale] = await responder.respondToStale(input);
    expect(stale?.text).toMatch(/late reply/);
  });

  it("refuses a bad regex or an over-long button title, naming the field", () => {
    expect(() =>
      resolveResponderSettings(tenant({ router: { rules: [{ match: "(", intent: "x" }] } })),
    ).toThrow(/router\.rules\[0\]\.match/);
    expect(() =>
      resolveResponderSettings(
        tenant({ replies: { x: { text: "t", buttons: [{ id: "a", title: "x".repeat(21) }] } } }),
      ),
    ).toThrow(ResponderSettingsError);
  });

  it("normalises text for rules", () => {
    expect(normalizeForRules("  Good   MORNING!! 🙏 ")).toBe("good morning");
  });
});
