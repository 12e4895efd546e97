import type { RouterIntent } from "../intents.js";

/**
 * The common approach the classifier is measured against: a keyword list per
 * intent, the first intent (in this order) with a keyword in the message
 * wins, and a match always answers. Written as a careful team would, with
 * Pidgin and SMS spellings; used only by `router eval --baseline keyword`.
 */
const KEYWORDS: readonly (readonly [RouterIntent, readonly string[]])[] = [
  [
    "talk_to_human",
    [
      "human",
      "agent",
      "customer care",
      "customer service",
      "real person",
      "talk to person",
      "speak to someone",
    ],
  ],
  [
    "failed_transaction",
    [
      "never enter",
      "not received",
      "didnt receive",
      "did not receive",
      "not credited",
      "never credit",
      "pending",
      "reversal",
      "reverse",
      "debited",
      "never reflect",
      "not reflect",
      "failed",
      "never drop",
    ],
  ],
  ["refund_request", ["refund", "money back", "return my money"]],
  ["delivery_issue", ["wrong item", "damaged", "late", "rider", "never deliver", "not delivered", "spoil"]],
  [
    "order_status",
    ["my order", "order status", "track", "tracking", "shipped", "where is my", "where my order"],
  ],
  ["card_issue", ["card", "pin", "atm", "freeze", "block"]],
  ["account_statement", ["statement", "history", "transactions"]],
  ["check_balance", ["balance", "bal", "how much i get", "how much i have"]],
  ["transfer_money", ["transfer", "send money", "send"]],
  ["airtime_data", ["airtime", "recharge", "data", "bundle", "mtn", "glo", "airtel", "9mobile"]],
  [
    "bill_payment",
    ["dstv", "gotv", "startimes", "electricity", "light bill", "nepa", "prepaid", "meter", "bill"],
  ],
  ["loan_inquiry", ["loan", "borrow"]],
  [
    "checkout_payment",
    ["how to pay", "how i go pay", "account details", "account number", "payment link", "pay on delivery"],
  ],
  ["product_inquiry", ["price", "how much", "available", "in stock", "size", "menu"]],
  ["store_info", ["open", "close", "location", "address", "delivery fee", "where are you", "where una dey"]],
  ["thanks_goodbye", ["thank", "thanks", "bye", "tanks", "tnx", "e se", "nagode", "daalu"]],
  [
    "greeting",
    [
      "hello",
      "hi",
      "good morning",
      "good afternoon",
      "good evening",
      "how far",
      "hey",
      "bawo",
      "sannu",
      "kedu",
    ],
  ],
];

const PATTERNS = KEYWORDS.map(
  ([intent, words]) =>
    [
      intent,
      new RegExp(
        `\\b(${words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")).join("|")})\\b`,
        "u",
      ),
    ] as const,
);

/** The keyword list's intent for a message, or undefined (left to the agent). */
export function keywordIntent(text: string): RouterIntent | undefined {
  const normalized = text.normalize("NFKC").toLowerCase().replace(/['’]/gu, "").replace(/\s+/gu, " ");
  return PATTERNS.find(([, pattern]) => pattern.test(normalized))?.[0];
}
