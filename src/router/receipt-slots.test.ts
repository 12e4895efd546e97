import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import type { ConversationStateStore, HistoryEntry, TurnInput } from "../conversation/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import { createFirstResponder, routeTurn } from "./first-responder.js";
import { loadIntentRouter } from "./intent-router.js";
import { resolveResponderSettings } from "./responder-settings.js";

const bank: TenantConfig = {
  id: "naija-bank",
  appSecret: "s",
  verifyToken: "v",
  graphToken: "g",
  phoneNumberIds: ["106540352242922"],
  throughputMps: 80,
  coalesce: { windowMs: 0, maxMs: 0 },
  staleAfterMs: 3_600_000,
  settings: {
    router: { languages: ["en"] },
    replies: {
      failed_transaction: {
        needs: ["amount", "reference"],
        text: { en: "We see {amount}, reference {reference}. We are checking it." },
        ask: { en: "Sorry! {known}Please send {missing}." },
        known: { en: "I see {seen}. " },
      },
    },
  },
};
const settings = resolveResponderSettings(bank);
const router = loadIntentRouter();

/** What the vision model read off the receipt fixture, as the media reader keeps it. */
const RECEIPT = {
  amount: { value: 15000, currency: "NGN" },
  date: "2025-03-14",
  bank: "Guaranty Trust Bank",
  reference: "0000 1325 0314",
  senderName: "ADEBAYO OKAFOR",
};

let seq = 0;
const base = () => ({
  tenantId: "naija-bank",
  phoneNumberId: "106540352242922",
  wabaId: "1",
  conversationKey: "naija-bank:106540352242922:234",
  wamid: `w${seq++}`,
  timestamp: 1,
  receivedAt: 1000,
  customer: { waId: "234" },
});
const text = (body: string): InboundMessage => ({ ...base(), type: "text", text: body });
const picture = (receipt: Record<string, unknown> = RECEIPT): InboundMessage => ({
  ...base(),
  type: "image",
  content: { id: "media-1", mime_type: "image/png" },
  reading: { kind: "image", mediaId: "media-1", description: "Payment receipt", receipt },
});

describe("a transfer receipt's slots in the router", () => {
  it("fill the routed reply's slots the customer did not write, and ride on the decision", () => {
    const routed = routeTurn(settings, [picture(), text("I don transfer, e never reach")], router);
    expect(routed.tier).toBe("classifier");
    expect(routed.reply.text).toBe("We see ₦15,000, reference 000013250314. We are checking it.");
    expect(routed.asked).toBeUndefined();
    expect(routed.decision?.slots).toMatchObject({
      amount: 15000,
      reference: "000013250314",
      bank: "GTBank",
      date: "2025-03-14",
    });
  });

  it("leave what the customer wrote standing, and give no amount in another currency", () => {
    const own = routeTurn(settings, [picture(), text("I don transfer 20k, e never reach")], router);
    expect(own.reply.text).toBe("We see ₦20,000, reference 000013250314. We are checking it.");

    const dollars = { ...RECEIPT, amount: { value: 10, currency: "USD" } };
    const foreign = routeTurn(settings, [picture(dollars), text("I don transfer, e never reach")], router);
    expect(foreign.reply.text).toBe("Sorry! I see reference 000013250314. Please send the amount.");
  });

  it("answer the bot's question when the customer sends the receipt alone", async () => {
    const entries: HistoryEntry[] = [];
    const state: ConversationStateStore = {
      recent: async (_key, limit) => (limit === undefined ? [...entries] : entries.slice(-limit)),
      append: async (_key, more) => {
        entries.push(...more);
      },
      mode: async () => "bot",
      setMode: async () => {},
      markPriority: async () => {},
    };
    const responder = createFirstResponder([bank], { router, state });
    const turn = (messages: InboundMessage[]): TurnInput => ({
      tenant: bank,
      conversationKey: "k",
      messages,
    });
    const [asked] = await responder.respond(turn([text("I don transfer, e never reach")]));
    expect(asked?.text).toBe("Sorry! Please send the amount and the transaction reference.");
    const [answered] = await responder.respond(turn([picture()]));
    expect(answered?.text).toBe("We see ₦15,000, reference 000013250314. We are checking it.");
  });
});
