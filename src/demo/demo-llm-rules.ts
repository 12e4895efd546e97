import type { FakeLlmRule } from "../dev/index.js";

/**
 * What the demo's fake LLM answers: in the customer's mix of Pidgin and
 * English, like the real agent is asked to, so the demo feels like the
 * product. Rules only answer with content, so the agent never loops on tools.
 */
export const DEMO_LLM_RULES: readonly FakeLlmRule[] = [
  {
    when: { lastUser: "transfer|debit|credit|money|alert|refund|reverse|naira|₦" },
    reply: {
      content:
        "Sorry about that wahala o! 🙏 Abeg send the amount, the date and the account you sent am to, " +
        "make I check am for you sharp sharp.",
    },
  },
  {
    when: { lastUser: "order|deliver|package|parcel|track" },
    reply: {
      content:
        "I hear you! 📦 Abeg send your order number, I go check where your package reach and update you.",
    },
  },
  {
    when: { always: true },
    reply: {
      content:
        'I don see your message: "{{lastUser}}". Thank you! (This na the sharpsharp demo: a fake LLM ' +
        "dey answer. Connect a real one with LLM_BASE_URL.)",
    },
  },
];

/** The model name the demo's agent asks the fake LLM for (the fake accepts any). */
export const DEMO_LLM_MODEL = "sharpsharp-demo";
