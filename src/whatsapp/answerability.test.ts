import { describe, expect, it } from "vitest";
import { type InboundMessage, parseWebhook, splitByAnswerability } from "./index.js";

// Invented shapes after docs/whatsapp-cloud-api.md §3 and §11; ids and numbers are made up.
const PHONE_NUMBER_ID = "106540352242922";
const receivedAt = 1_795_166_000_000;
const options = { tenantId: "default", receivedAt };

const webhook = (messages: unknown[], contacts?: unknown[], phoneNumberId = PHONE_NUMBER_ID) => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: "114098765432109",
      changes: [
        {
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "+234 901 234 5678", phone_number_id: phoneNumberId },
            ...(contacts === undefined ? {} : { contacts }),
            messages,
          },
        },
      ],
    },
  ],
});
const from = (extra: Record<string, unknown>) => ({
  from: "2348012345678",
  id: "wamid.A1",
  timestamp: "1795165900",
  ...extra,
});
const one = (message: Record<string, unknown>, contacts?: unknown[]): InboundMessage => {
  const parsed = parseWebhook(webhook([message], contacts), options);
  expect(parsed.dropped).toEqual([]);
  expect(parsed.messages).toHaveLength(1);
  return parsed.messages[0] as InboundMessage;
};

describe("normalising the shapes other senders use", () => {
  it("reads the legacy voice type as audio, with its media id", () => {
    const message = one(from({ type: "voice", voice: { id: "55501", mime_type: "audio/ogg; codecs=opus" } }));
    expect(message).toMatchObject({ type: "audio", originalType: "voice", content: { id: "55501" } });
    expect(message.unanswerable).toBeUndefined();
  });

  it("coerces coordinates sent as numeric strings, and keeps a non-number unsupported", () => {
    const quoted = one(from({ type: "location", location: { latitude: "6.4474", longitude: "-3.4726" } }));
    expect(quoted).toMatchObject({ type: "location", content: { latitude: 6.4474, longitude: -3.4726 } });
    const placeholder = one(from({ type: "location", location: { latitude: "LAT", longitude: "LONG" } }));
    expect(placeholder).toMatchObject({ type: "unsupported", originalType: "location" });
    const outOfRange = one(from({ type: "location", location: { latitude: 91, longitude: 0 } }));
    expect(outOfRange.type).toBe("unsupported");
  });

  it("normalises an edit with the message it changes and what it says now", () => {
    const message = one(
      from({
        type: "edit",
        edit: {
          original_message_id: "wamid.OLD",
          message: { type: "text", text: { body: "abeg na 5k, not 50k" } },
        },
      }),
    );
    expect(message).toMatchObject({
      type: "edit",
      targetWamid: "wamid.OLD",
      text: "abeg na 5k, not 50k",
      unanswerable: "edit",
    });
  });

  it("normalises a revoke with the message that was deleted", () => {
    const message = one(from({ type: "revoke", revoke: { original_message_id: "wamid.GONE" } }));
    expect(message).toMatchObject({ type: "revoke", targetWamid: "wamid.GONE", unanswerable: "revoke" });
  });

  it("keeps a reaction's target and emoji, and a removal's target", () => {
    const reaction = one(from({ type: "reaction", reaction: { message_id: "wamid.OURS", emoji: "👍" } }));
    expect(reaction).toMatchObject({ targetWamid: "wamid.OURS", content: { emoji: "👍" } });
    const removed = one(from({ type: "reaction", reaction: { message_id: "wamid.OURS", emoji: "" } }));
    expect(removed).toMatchObject({ targetWamid: "wamid.OURS", unanswerable: "reaction" });
  });
});

describe("finding the sender", () => {
  const bsuid = "NG.3318264059917364520";

  it("uses the only contact's user id when the message names nobody", () => {
    const message = one(
      {
        id: "wamid.C1",
        timestamp: "1795165900",
        type: "contacts",
        contacts: [{ name: { formatted_name: "B" } }],
      },
      [{ user_id: bsuid, profile: { name: "Ngozi" } }],
    );
    expect(message.customer).toEqual({ userId: bsuid, name: "Ngozi" });
    expect(message.conversationKey).toBe(`default:${PHONE_NUMBER_ID}:${bsuid}`);
    expect(message.unanswerable).toBeUndefined();
  });

  it("uses a system notice's user id when nothing else names the customer", () => {
    const message = one({
      id: "wamid.S1",
      timestamp: "1795165900",
      type: "system",
      system: { body: "changed", type: "user_changed_user_id", user_id: bsuid },
    });
    expect(message).toMatchObject({ customer: { userId: bsuid }, unanswerable: "system" });
  });

  it("takes a BSUID in `from` as the user id, never as a number to answer", () => {
    const message = one(from({ from: "NG.1234", type: "text", text: { body: "hi" } }), [
      { wa_id: "NG.1234", profile: { name: "U" } },
    ]);
    expect(message.customer).toEqual({ userId: "NG.1234", name: "U" });
    expect(message.unanswerable).toBeUndefined();
  });

  it("keeps a `from` that is neither a number nor a BSUID as a raw id with no reply address", () => {
    const message = one(from({ from: "PHONE_NUMBER", type: "text", text: { body: "hi" } }));
    expect(message.customer).toEqual({ rawId: "PHONE_NUMBER" });
    expect(message).toMatchObject({
      conversationKey: `default:${PHONE_NUMBER_ID}:PHONE_NUMBER`,
      unanswerable: "no_reply_address",
    });
  });

  it("ignores a malformed user id beside a good number", () => {
    const message = one(from({ type: "text", text: { body: "hi" } }), [
      { wa_id: "2348012345678", user_id: "not_a_bsuid" },
    ]);
    expect(message.customer).toEqual({ waId: "2348012345678" });
  });
});

describe("what is answered", () => {
  it("answers a one-to-one text", () => {
    expect(one(from({ type: "text", text: { body: "hi" } })).unanswerable).toBeUndefined();
  });

  it("records a group message in the group's conversation, unanswered", () => {
    const message = one(
      from({ type: "text", text: { body: "hi all" }, group_id: "120363000000000001@g.us" }),
    );
    expect(message).toMatchObject({
      groupId: "120363000000000001@g.us",
      conversationKey: `default:${PHONE_NUMBER_ID}:120363000000000001@g.us`,
      customer: { waId: "2348012345678" },
      unanswerable: "group",
    });
  });

  it("never answers from a number the tenant does not list", () => {
    const parsed = parseWebhook(webhook([from({ type: "text", text: { body: "hi" } })]), {
      ...options,
      isListedNumber: (phoneNumberId) => phoneNumberId === "999",
    });
    expect(parsed.messages[0]?.unanswerable).toBe("unlisted_number");
  });

  it("never answers a message whose sender is the business number itself", () => {
    expect(one(from({ from: PHONE_NUMBER_ID, type: "text", text: { body: "x" } })).unanswerable).toBe(
      "own_number",
    );
    expect(one(from({ from: "2349012345678", type: "text", text: { body: "x" } })).unanswerable).toBe(
      "own_number",
    );
  });

  it("does not answer an edit that arrives as unsupported", () => {
    const message = one(from({ type: "unsupported", unsupported: { type: "edit" } }));
    expect(message.unanswerable).toBe("edit");
  });

  it("splits a batch: answerable to the inbox, the rest to record-only events keyed by wamid", () => {
    const parsed = parseWebhook(
      webhook([
        from({ id: "wamid.T", type: "text", text: { body: "hi" } }),
        from({ id: "wamid.R", type: "reaction", reaction: { message_id: "wamid.OURS", emoji: "🙏" } }),
      ]),
      options,
    );
    const { answerable, recordOnly } = splitByAnswerability(parsed.messages);
    expect(answerable.map((message) => message.wamid)).toEqual(["wamid.T"]);
    expect(recordOnly).toEqual([
      expect.objectContaining({
        kind: "message",
        dedupeId: "default:message:wamid.R",
        message: expect.objectContaining({ wamid: "wamid.R", unanswerable: "reaction" }),
      }),
    ]);
  });
});

describe("timestamps from the future", () => {
  it("flags a timestamp minutes ahead of arrival and orders the message by its arrival", () => {
    const ahead = String(receivedAt / 1000 + 3600);
    const message = one(from({ timestamp: ahead, type: "text", text: { body: "hi" } }));
    expect(message).toMatchObject({ futureTimestamp: Number(ahead), timestamp: receivedAt / 1000 });
  });

  it("leaves a timestamp a little ahead (clock skew) as Meta sent it", () => {
    const ahead = receivedAt / 1000 + 60;
    const message = one(from({ timestamp: String(ahead), type: "text", text: { body: "hi" } }));
    expect(message.timestamp).toBe(ahead);
    expect(message.futureTimestamp).toBeUndefined();
  });
});
