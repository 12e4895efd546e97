import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../../config/index.js";
import type { ConversationStateStore, HistoryEntry, TurnInput } from "../../conversation/index.js";
import { ResponderSettingsError } from "../../conversation/index.js";
import type { InboundMessage } from "../../whatsapp/index.js";
import { DEFAULT_RESPONDER_SETTINGS } from "../default-responder-settings.js";
import { createFirstResponder, routeTurn } from "../first-responder.js";
import { loadIntentRouter } from "../intent-router.js";
import { resolveResponderSettings } from "../responder-settings.js";
import { ASKED_ENTRY } from "./ask-once.js";
import { dateWords, formatNaira, maskDigits } from "./slot-words.js";

const tenant = (settings: Record<string, unknown> = {}): TenantConfig => ({
  id: "naija-bank",
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
const msg = (text: string): InboundMessage => ({
  tenantId: "naija-bank",
  phoneNumberId: "106540352242922",
  wabaId: "1",
  conversationKey: "naija-bank:106540352242922:234",
  wamid: `w${seq++}`,
  timestamp: 1,
  receivedAt: 1000,
  type: "text",
  customer: { waId: "234" },
  text,
});

/** The history store, in memory: enough for the ask-once memory. */
function memoryState(): ConversationStateStore & { entries: HistoryEntry[] } {
  const entries: HistoryEntry[] = [];
  return {
    entries,
    async recent(_key, limit) {
      return limit === undefined ? [...entries] : entries.slice(-limit);
    },
    async append(_key, more) {
      entries.push(...more);
    },
    async mode() {
      return "bot";
    },
    async setMode() {},
    async markPriority() {},
  };
}

const FAILED = {
  needs: ["amount", "date", "account"],
  text: {
    en: "Thank you! I see {amount} {date} to account {account}. We are checking it; a failed transfer reverses within 24 hours.",
    pcm: "Thank you! I see {amount} {date} for account {account}. We dey check am; failed transfer dey reverse within 24 hours.",
  },
  ask: {
    en: "Sorry about this! {known}Please send {missing} so we can check it.",
    pcm: "Sorry o! {known}Abeg send {missing} make we check am.",
  },
  known: { en: "I see {seen}. ", pcm: "I see {seen}. " },
};
const bank = tenant({ replies: { failed_transaction: FAILED } });
const router = loadIntentRouter();
const SHARP = "I sharp sharp transfer ₦15k since morning, my account never credit";

describe("replies that use the slots", () => {
  const settings = resolveResponderSettings(bank);

  it("names what the customer gave and asks only for what is missing", () => {
    const routed = routeTurn(settings, [msg(SHARP)], router);
    expect(routed.tier).toBe("classifier");
    expect(routed.reply.text).toBe(
      "Sorry o! I see ₦15,000, since morning. Abeg send your account number make we check am.",
    );
    expect(routed.asked?.missing).toEqual(["account"]);
  });

  it("confirms without asking when every essential slot is there", () => {
    const routed = routeTurn(
      settings,
      [msg("I sharp sharp transfer ₦15k since morning to 0123456789, e never credit")],
      router,
    );
    expect(routed.reply.text).toBe(
      "Thank you! I see ₦15,000 since morning for account ******6789. We dey check am; failed transfer dey reverse within 24 hours.",
    );
    expect(routed.asked).toBeUndefined();
    expect(routed.reply.text).not.toMatch(/\?|send/);
  });

  it("leaves out the known sentence when nothing is known, and asks for all of it in one message", () => {
    const routed = routeTurn(settings, [msg("my money never drop")], router);
    expect(routed.reply.text).toBe(
      "Sorry o! Abeg send the amount, the date and your account number make we check am.",
    );
  });

  it("asks once: a next turn still missing the slots goes to the agent", async () => {
    const state = memoryState();
    const responder = createFirstResponder([bank], { router, state });
    const turn = (text: string): TurnInput => ({ tenant: bank, conversationKey: "k", messages: [msg(text)] });
    const [asked] = await responder.respond(turn(SHARP));
    expect(asked?.text).toMatch(/account number/);
    expect(state.entries.map((entry) => entry.type)).toEqual([ASKED_ENTRY]);
    const [second] = await responder.respond(turn("my transfer still never enter"));
    expect(second?.text).toBe(DEFAULT_RESPONDER_SETTINGS.fallback.text.pcm);
  });

  it("completes the slots with what the customer sent after the question", async () => {
    const state = memoryState();
    const responder = createFirstResponder([bank], { router, state });
    const turn = (text: string): TurnInput => ({ tenant: bank, conversationKey: "k", messages: [msg(text)] });
    await responder.respond(turn(SHARP));
    const [second] = await responder.respond(turn("my transfer never enter, account na 0123456789"));
    expect(second?.text).toMatch(/^Thank you! I see ₦15,000 since morning for account \*{6}6789\./u);
    // Answered: a new complaint later is asked about afresh, not sent to the agent.
    const [third] = await responder.respond(turn("my money never drop"));
    expect(third?.text).toMatch(/^Sorry o! Abeg send the amount/u);
  });

  it("takes a bare answer to the question as the asked intent, and nothing else", async () => {
    const state = memoryState();
    const responder = createFirstResponder([bank], { router, state });
    const turn = (text: string): TurnInput => ({ tenant: bank, conversationKey: "k", messages: [msg(text)] });
    await responder.respond(turn(SHARP));
    const [answer] = await responder.respond(turn("0123456789"));
    expect(answer?.text).toMatch(/^Thank you! I see ₦15,000 since morning for account \*{6}6789\./u);

    const other = memoryState();
    const again = createFirstResponder([bank], { router, state: other });
    const otherTurn = (text: string): TurnInput => ({
      tenant: bank,
      conversationKey: "o",
      messages: [msg(text)],
    });
    await again.respond(otherTurn(SHARP));
    const [unrelated] = await again.respond(otherTurn("I wan buy data for 08031234567 and check my loan"));
    expect(unrelated?.text).toBe(DEFAULT_RESPONDER_SETTINGS.fallback.text.pcm);
    const [balance] = await again.respond(otherTurn("check my balance 0123456789"));
    expect(Object.values(DEFAULT_RESPONDER_SETTINGS.fallback.text)).toContain(balance?.text);
  });

  it("forgets an ask after half an hour", async () => {
    const state = memoryState();
    state.entries.push({
      at: Date.now() - 31 * 60_000,
      from: "bot",
      type: ASKED_ENTRY,
      text: JSON.stringify({ intent: "failed_transaction", slots: {} }),
    });
    const responder = createFirstResponder([bank], { router, state });
    const [reply] = await responder.respond({ tenant: bank, conversationKey: "k", messages: [msg(SHARP)] });
    expect(reply?.text).toMatch(/Abeg send your account number/);
  });

  it("sends a reply that needs slots and has no ask to the agent when they are missing", () => {
    const strict = resolveResponderSettings(
      tenant({
        replies: { failed_transaction: { needs: ["account"], text: "Checking account {account}." } },
      }),
    );
    const routed = routeTurn(strict, [msg(SHARP)], router);
    expect(routed).toMatchObject({ tier: "fallback", decision: { intent: "failed_transaction" } });
  });
});

describe("replies per language", () => {
  it("greets a Yoruba, Hausa or Igbo speaker in their language with the defaults", () => {
    const settings = resolveResponderSettings(tenant());
    const greet = (text: string) => routeTurn(settings, [msg(text)], router).reply.text;
    expect(greet("e kaaro")).toBe(DEFAULT_RESPONDER_SETTINGS.replies.greeting.text.yo);
    // The default greeting rule matches with tone marks too (rules also see the folded text).
    expect(routeTurn(settings, [msg("Ẹ káàárọ̀ o")], router).tier).toBe("rule");
    expect(routeTurn(settings, [msg("Sannu da zuwa")], router).intent).toBe("greeting");
    expect(greet("ina kwana")).toBe(DEFAULT_RESPONDER_SETTINGS.replies.greeting.text.ha);
    expect(greet("ndewo")).toBe(DEFAULT_RESPONDER_SETTINGS.replies.greeting.text.ig);
    // The rule tier asks the router's language hook: "hi" is too short to tell, so the order decides (pcm first),
    // while a longer English greeting is English.
    expect(greet("hi")).toBe(DEFAULT_RESPONDER_SETTINGS.replies.greeting.text.pcm);
    expect(greet("good morning sir")).toBe(DEFAULT_RESPONDER_SETTINGS.replies.greeting.text.en);
  });

  it("falls back in the tenant's order when the customer's language has no text", () => {
    const settings = resolveResponderSettings(
      tenant({
        router: { languages: ["yo", "en"] },
        replies: { greeting: { text: { en: "Hello from Ade's shop", yo: "Ẹ kú àbọ̀ sí ṣọ́ọ̀bù Ade" } } },
      }),
    );
    expect(routeTurn(settings, [msg("sannu")], router).reply.text).toBe("Ẹ kú àbọ̀ sí ṣọ́ọ̀bù Ade");
    expect(routeTurn(settings, [msg("good morning sir")], router).reply.text).toBe("Hello from Ade's shop");
    // Too short to tell ("hi"), or without a router: the first of the order.
    expect(routeTurn(settings, [msg("hi")], router).reply.text).toBe("Ẹ kú àbọ̀ sí ṣọ́ọ̀bù Ade");
    expect(routeTurn(settings, [msg("hi")]).reply.text).toBe("Ẹ kú àbọ̀ sí ṣọ́ọ̀bù Ade");
  });

  it("answers a tapped button in the tenant's first language, not the button title's", () => {
    const settings = resolveResponderSettings(tenant());
    const tap = { ...msg("Talk to a person"), type: "interactive" as const, replyId: "talk_to_human" };
    expect(routeTurn(settings, [tap], router).reply.text).toBe(
      DEFAULT_RESPONDER_SETTINGS.replies.talk_to_human.text.pcm,
    );
  });

  it("keeps the plain one-text form for every language", () => {
    const settings = resolveResponderSettings(
      tenant({ replies: { greeting: { text: "How far! Na Ada." } } }),
    );
    expect(routeTurn(settings, [msg("ndewo")], router).reply.text).toBe("How far! Na Ada.");
  });

  it("renders slots in the customer's language", () => {
    expect(formatNaira(15_000)).toBe("₦15,000");
    expect(formatNaira(2_500_000.5)).toBe("₦2,500,000.50");
    expect(maskDigits("0123456789")).toBe("******6789");
    expect(dateWords("this_morning", "en")).toBe("since this morning");
    expect(dateWords("this_morning", "pcm")).toBe("since morning");
    expect(dateWords("yesterday", "ha")).toBe("jiya");
    expect(dateWords("since_friday", "yo")).toBe("láti Ọjọ́ Ẹtì");
  });
});

describe("template mistakes stop the start", () => {
  const problem = (replies: Record<string, unknown>, router?: Record<string, unknown>) => {
    try {
      resolveResponderSettings(tenant({ replies, ...(router === undefined ? {} : { router }) }));
    } catch (error) {
      expect(error).toBeInstanceOf(ResponderSettingsError);
      expect((error as ResponderSettingsError).code).toBe("SS_CONVERSATION_INVALID_SETTINGS");
      return (error as Error).message;
    }
    throw new Error("the settings were accepted");
  };

  it("names the tenant and the field of an unknown slot or an unbalanced brace", () => {
    expect(problem({ failed_transaction: { ...FAILED, ask: { en: "Send {mising} please" } } })).toMatch(
      /tenant "naija-bank".*replies\.failed_transaction\.ask\.en: unknown placeholder \{mising\}/,
    );
    expect(problem({ greeting: { text: { pcm: "How far {amount" } } })).toMatch(
      /replies\.greeting\.text\.pcm: unbalanced "\{" at character 9/,
    );
    expect(problem({ greeting: { text: "Hi} there" } })).toMatch(/replies\.greeting\.text: unbalanced "\}"/);
    expect(problem({ failed_transaction: { ...FAILED, needs: ["amount", "acount"] } })).toMatch(
      /replies\.failed_transaction\.needs\[1\]: unknown slot "acount"/,
    );
  });

  it("refuses a slot a text cannot be sure of, an ask that does not say what is missing, and a bad language", () => {
    expect(problem({ greeting: { text: "Hi, I see {amount}" } })).toMatch(
      /replies\.greeting\.text: \{amount\} cannot be used here/,
    );
    expect(problem({ failed_transaction: { ...FAILED, ask: "Abeg send everything" } })).toMatch(
      /replies\.failed_transaction\.ask: must name \{missing\}/,
    );
    expect(problem({ greeting: { text: { fr: "Bonjour" } } })).toMatch(/replies\.greeting\.text/);
    expect(problem({}, { languages: ["pcm", "fr"] })).toMatch(/router\.languages/);
  });

  it("refuses a template that could render past Meta's 4,096 characters", () => {
    const long = `${"x".repeat(3_900)} {missing}`;
    expect(problem({ failed_transaction: { ...FAILED, ask: long } })).toMatch(
      /replies\.failed_transaction\.ask: may render \d+ characters, over Meta's 4096/,
    );
  });

  it("holds a reply with buttons to Meta's 1,024 characters for an interactive body", () => {
    const buttons = [{ id: "talk_to_human", title: "Talk to a person" }];
    expect(problem({ greeting: { text: "x".repeat(1_500), buttons } })).toMatch(
      /replies\.greeting\.text: may render 1500 characters, over Meta's 1024 for a message with buttons or a list/,
    );
    expect(() =>
      resolveResponderSettings(tenant({ replies: { greeting: { text: "x".repeat(1_500) } } })),
    ).not.toThrow();
  });

  it("accepts literal braces written twice", () => {
    const settings = resolveResponderSettings(
      tenant({ replies: { greeting: { text: "Use code {{SAVE10}}" } } }),
    );
    expect(routeTurn(settings, [msg("hi")]).reply.text).toBe("Use code {SAVE10}");
  });
});
