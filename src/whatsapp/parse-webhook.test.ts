import { describe, expect, it } from "vitest";
import { fixtureJson, webhookFixtureNames } from "../../test/support/meta-fixtures.js";
import { type InboundMessage, parseWebhook, WebhookShapeError } from "./index.js";

const options = { tenantId: "default", receivedAt: 1_795_166_000_000 };
const parse = (name: string) => parseWebhook(fixtureJson(name), options);
const only = (name: string): InboundMessage => {
  const { messages } = parse(name);
  expect(messages).toHaveLength(1);
  return messages[0] as InboundMessage;
};

describe("parseWebhook on Meta's fixtures", () => {
  it.each(webhookFixtureNames())("%s parses with nothing dropped", (name) => {
    const parsed = parse(name);
    expect(parsed.dropped).toEqual([]);
    expect(parsed.messages.length + parsed.events.length).toBeGreaterThan(0);
  });

  it("reads a Pidgin text with the naira sign, keyed by wa_id", () => {
    const message = only("inbound-text-pidgin");
    expect(message).toMatchObject({
      type: "text",
      conversationKey: "default:106540352242922:2348012345678",
      customer: { waId: "2348012345678", userId: "NG.4815162342108765432", name: "Chinedu Okafor" },
      phoneNumberId: "106540352242922",
      wabaId: "114098765432109",
    });
    expect(message.text).toMatch(/abeg my transfer never enter/);
    expect(Number.isInteger(message.timestamp)).toBe(true);
  });

  it("keys a username customer with no phone number by the business-scoped user id", () => {
    const message = only("inbound-text-username-no-phone");
    expect(message.customer).toEqual({
      userId: "NG.3318264059917364520",
      name: "Ngozi",
      username: "@ngozi.designs",
    });
    expect(message.conversationKey).toBe("default:106540352242922:NG.3318264059917364520");
  });

  it("accepts the classic shape without BSUID fields", () => {
    expect(only("inbound-text").customer.waId).toMatch(/^234/);
  });

  it("keeps media ids, voice flag, captions, context and referral", () => {
    expect(only("inbound-audio-voice")).toMatchObject({
      type: "audio",
      content: { voice: true, id: "1290468815730245" },
    });
    expect(only("inbound-image-caption").text).toContain("\u20a6");
    expect(only("inbound-text-reply-context").context).toMatchObject({ from: "2349012345678" });
    expect(only("inbound-referral-ctwa").referral).toMatchObject({
      source_type: "ad",
      ctwa_clid: expect.any(String),
    });
  });

  it("exposes interactive and template button replies as reply ids", () => {
    expect(only("inbound-interactive-button-reply")).toMatchObject({
      replyId: "txn_check_status",
      text: "Check status",
    });
    expect(only("inbound-interactive-list-reply").type).toBe("interactive");
    expect(only("inbound-button-template-quick-reply")).toMatchObject({
      type: "button",
      replyId: "Talk to an agent",
    });
  });

  it("models reactions, including a removed one", () => {
    expect(only("inbound-reaction").content).toMatchObject({ emoji: expect.any(String) });
    const removed = only("inbound-reaction-removed");
    expect(removed.type).toBe("reaction");
    expect((removed.content as Record<string, unknown>).emoji).toBeUndefined();
  });

  it("keeps Meta's errors on unsupported messages", () => {
    expect(only("inbound-unsupported")).toMatchObject({ type: "unsupported", errors: [{ code: 131051 }] });
  });

  it("handles every entry and every message of a batch", () => {
    const twoEntries = parse("inbound-batch-two-entries").messages;
    expect(twoEntries.map((m) => m.phoneNumberId)).toEqual(["106540352242922", "109876543210987"]);
    const twoUsers = parse("inbound-batch-two-users-one-change").messages;
    expect(new Set(twoUsers.map((m) => m.conversationKey)).size).toBe(2);
  });

  it("turns statuses into events deduplicated by (tenant, wamid, status)", () => {
    const events = parse("status-batch-delivered-read").events;
    expect(events.map((e) => e.kind === "status" && e.status)).toEqual(["read", "delivered"]);
    expect(new Set(events.map((e) => e.dedupeId)).size).toBe(2);
    const failed = parse("status-failed").events[0];
    expect(failed).toMatchObject({ kind: "status", status: "failed", errors: [{ code: 131047 }] });
    expect(parse("status-sent-free-entry-point").events[0]).toMatchObject({
      pricing: { type: "free_entry_point" },
      conversation: { origin: { type: "referral_conversion" } },
    });
  });

  it("reports value.errors", () => {
    const parsed = parse("webhook-value-errors");
    expect(parsed.webhookErrors).toEqual([{ phoneNumberId: "106540352242922", code: 130429 }]);
    expect(parsed.events[0]).toMatchObject({ kind: "webhook_error" });
  });
});

describe("parseWebhook on odd input", () => {
  const envelope = (value: unknown, field = "messages") => ({
    object: "whatsapp_business_account",
    entry: [{ id: "1", changes: [{ field, value }] }],
  });
  const metadata = { phone_number_id: "106540352242922" };
  const message = (extra: Record<string, unknown>) => ({
    id: "wamid.X",
    timestamp: "1795165900",
    from: "2348012345678",
    ...extra,
  });

  it("maps an unknown type, or a known type with the wrong shape, to unsupported", () => {
    const parsed = parseWebhook(
      envelope({
        metadata,
        messages: [
          message({ type: "poll_v9", poll_v9: {} }),
          message({ id: "wamid.Y", type: "text", text: 5 }),
        ],
      }),
      options,
    );
    expect(parsed.messages.map((m) => [m.type, m.originalType])).toEqual([
      ["unsupported", "poll_v9"],
      ["unsupported", "text"],
    ]);
  });

  it("drops (and reports) a message with no id or no sender, keeping the rest", () => {
    const parsed = parseWebhook(
      envelope({
        metadata,
        messages: [
          { type: "text" },
          { id: "wamid.N", timestamp: "1", type: "text", text: { body: "x" } },
          message({ type: "text", text: { body: "ok" } }),
        ],
      }),
      options,
    );
    expect(parsed.messages).toHaveLength(1);
    expect(parsed.dropped).toEqual([{ reason: "malformed_message" }, { reason: "no_sender", id: "wamid.N" }]);
  });

  it("passes other fields through as change events", () => {
    const parsed = parseWebhook(envelope({ event: "FLAGGED" }, "phone_number_quality_update"), options);
    expect(parsed.events[0]).toMatchObject({ kind: "change", field: "phone_number_quality_update" });
  });

  it.each([
    ["a string", "hello"],
    ["the wrong object", { object: "page", entry: [] }],
    ["no entry", { object: "whatsapp_business_account" }],
    ["a messages change without metadata", envelope({ messages: [] })],
  ])("rejects %s as not an envelope", (_label, body) => {
    expect(() => parseWebhook(body, options)).toThrow(WebhookShapeError);
  });
});

describe("parseWebhook on the message types without a shared fixture", () => {
  // Shapes from docs/whatsapp-cloud-api.md §3.2 (Meta's webhook reference).
  const wrap = (
    message: Record<string, unknown>,
    contacts: unknown[] = [{ wa_id: "2348012345678", profile: { name: "C" } }],
  ) => ({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "114098765432109",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "2349012345678", phone_number_id: "106540352242922" },
              ...(contacts.length > 0 ? { contacts } : {}),
              messages: [{ from: "2348012345678", id: "wamid.T", timestamp: "1795165900", ...message }],
            },
          },
        ],
      },
    ],
  });
  const one = (message: Record<string, unknown>, contacts?: unknown[]) => {
    const parsed = parseWebhook(wrap(message, contacts), options);
    expect(parsed.dropped).toEqual([]);
    return parsed.messages[0] as InboundMessage;
  };
  const media = { mime_type: "video/mp4", sha256: "abc=", id: "987654321" };

  it.each([
    ["video", { type: "video", video: { ...media, caption: "see am" } }, { type: "video", text: "see am" }],
    [
      "document",
      {
        type: "document",
        document: { ...media, mime_type: "application/pdf", filename: "receipt.pdf", caption: "my receipt" },
      },
      { type: "document", text: "my receipt", content: { filename: "receipt.pdf" } },
    ],
    [
      "sticker",
      { type: "sticker", sticker: { ...media, mime_type: "image/webp", animated: false } },
      { type: "sticker" },
    ],
    [
      "location",
      {
        type: "location",
        location: { latitude: 6.4474, longitude: 3.4726, name: "Lekki Phase 1", address: "Lagos" },
      },
      { type: "location", content: { name: "Lekki Phase 1" } },
    ],
    [
      "contacts",
      {
        type: "contacts",
        contacts: [
          { name: { formatted_name: "Bisi" }, phones: [{ phone: "+2348011111111", wa_id: "2348011111111" }] },
        ],
      },
      { type: "contacts" },
    ],
    [
      "a flow reply",
      {
        type: "interactive",
        interactive: {
          type: "nfm_reply",
          nfm_reply: { name: "flow", body: "Sent", response_json: '{"flow_token":"t"}' },
        },
      },
      { type: "interactive", content: { type: "nfm_reply" } },
    ],
    [
      "an order",
      {
        type: "order",
        order: {
          catalog_id: "1",
          text: "abeg send am",
          product_items: [{ product_retailer_id: "jollof", quantity: 2, item_price: 2500, currency: "NGN" }],
        },
      },
      { type: "order", text: "abeg send am" },
    ],
    [
      "a forwarded text",
      { type: "text", text: { body: "fwd" }, context: { forwarded: true } },
      { type: "text", text: "fwd", context: { forwarded: true } },
    ],
  ])("normalises %s", (_label, message, expected) => {
    expect(one(message)).toMatchObject(expected);
  });

  it("accepts a system message, which comes with no contacts array", () => {
    const message = one(
      {
        type: "system",
        system: {
          body: "User A changed from 234801 to 234802",
          wa_id: "2348020000000",
          type: "user_changed_number",
        },
      },
      [],
    );
    expect(message).toMatchObject({ type: "system", customer: { waId: "2348012345678" } });
  });
});

describe("parseWebhook on text no store can hold", () => {
  it("replaces NUL and lone surrogates in what the customer sent, before anything is recorded", () => {
    const body = JSON.parse(
      JSON.stringify(fixtureJson("inbound-text")).replace(
        /"body":"[^"]*"/,
        '"body":"abeg\\u0000 \\ud83d check"',
      ),
    ) as unknown;
    const [message] = parseWebhook(body, options).messages;
    expect(message?.text).toBe("abeg\uFFFD \uFFFD check");
  });

  it("cleans them as well when given the source text, which lets it skip the walk on clean bodies", () => {
    const text = JSON.stringify(fixtureJson("inbound-text")).replace(
      /"body":"[^"]*"/,
      '"body":"abeg\\u0000 \\ud83d check"',
    );
    const [message] = parseWebhook(JSON.parse(text), { ...options, sourceText: text }).messages;
    expect(message?.text).toBe("abeg\uFFFD \uFFFD check");
    const clean = JSON.stringify(fixtureJson("inbound-text"));
    expect(parseWebhook(JSON.parse(clean), { ...options, sourceText: clean })).toEqual(
      parseWebhook(JSON.parse(clean), options),
    );
  });
});
