import { describe, expect, it } from "vitest";
import type { InboundMessage } from "../../whatsapp/index.js";
import { inboundRecordOf, outboundRecordOf, textOfGraphBody } from "./record-of.js";

const base: InboundMessage = {
  tenantId: "acme",
  phoneNumberId: "106540352242922",
  wabaId: "waba-1",
  conversationKey: "acme:106540352242922:NG.3318264059917364520",
  wamid: "wamid.1",
  timestamp: 1_768_046_400,
  receivedAt: 1_768_046_400_250,
  type: "image",
  customer: { userId: "NG.3318264059917364520" },
  text: "receipt for order 42",
  content: { id: "media-9", caption: "receipt for order 42", mime_type: "image/jpeg" },
};

describe("message log records", () => {
  it("keeps a media message's id and caption once, and a BSUID as the customer", () => {
    expect(inboundRecordOf(base)).toEqual({
      tenantId: "acme",
      conversationKey: base.conversationKey,
      wamid: "wamid.1",
      customerId: "NG.3318264059917364520",
      type: "image",
      mediaId: "media-9",
      caption: "receipt for order 42",
      content: {
        phoneNumberId: "106540352242922",
        wabaId: "waba-1",
        timestamp: 1_768_046_400,
        type: "image",
        customer: { userId: "NG.3318264059917364520" },
        text: "receipt for order 42",
        content: { id: "media-9", caption: "receipt for order 42", mime_type: "image/jpeg" },
      },
      metaTimestamp: 1_768_046_400,
      receivedAt: 1_768_046_400_250,
    });
  });

  it("keeps what the columns cannot: a reaction's emoji and target, a location, why it is not answered", () => {
    const reaction = inboundRecordOf({
      ...base,
      type: "reaction",
      text: undefined,
      content: { message_id: "wamid.ours", emoji: "🙏" },
      targetWamid: "wamid.ours",
      unanswerable: "reaction",
    });
    expect(reaction.content).toMatchObject({
      content: { emoji: "🙏" },
      targetWamid: "wamid.ours",
      unanswerable: "reaction",
    });
    const place = inboundRecordOf({
      ...base,
      type: "location",
      text: undefined,
      content: { latitude: 6.4474, longitude: 3.4726, name: "Lekki" },
    });
    expect(place.content).toMatchObject({ content: { latitude: 6.4474, longitude: 3.4726 } });
  });

  it("keeps the customer's profile name trimmed and bounded, and none when it is blank", () => {
    const named = inboundRecordOf({
      ...base,
      customer: { waId: "2348012345678", name: "  Chinedu Okafor " },
    });
    expect(named.customerName).toBe("Chinedu Okafor");
    const long = inboundRecordOf({ ...base, customer: { waId: "2348012345678", name: "🙂".repeat(300) } });
    expect(Array.from(long.customerName ?? "")).toHaveLength(256);
    expect(long.customerName?.endsWith("🙂")).toBe(true);
    expect(inboundRecordOf({ ...base, customer: { waId: "1", name: "   " } })).not.toHaveProperty(
      "customerName",
    );
    expect(inboundRecordOf(base)).not.toHaveProperty("customerName");
  });

  it("keeps a voice note's media id, and a button's title as text", () => {
    const voice = inboundRecordOf({ ...base, type: "audio", text: undefined, content: { id: "media-v" } });
    expect(voice).toMatchObject({ type: "audio", mediaId: "media-v" });
    expect(voice.text).toBeUndefined();
    const button = inboundRecordOf({ ...base, type: "button", text: "Yes", content: { text: "Yes" } });
    expect(button).toMatchObject({ type: "button", text: "Yes" });
    expect(button.mediaId).toBeUndefined();
  });

  it("reads the text a customer sees out of a Graph API body", () => {
    expect(textOfGraphBody({ type: "text", text: { body: "Hello" } })).toBe("Hello");
    expect(textOfGraphBody({ type: "interactive", interactive: { body: { text: "Pick" } } })).toBe("Pick");
    expect(textOfGraphBody({ type: "template", template: { name: "order_followup" } })).toBeUndefined();
    const record = outboundRecordOf(
      {
        tenantId: "acme",
        phoneNumberId: "106540352242922",
        conversationKey: base.conversationKey,
        recipient: "NG.3318264059917364520",
        turnId: "turn-1",
        part: 1,
        message: { type: "template", template: { name: "order_followup" } },
      },
      5,
    );
    expect(record).toEqual({
      tenantId: "acme",
      conversationKey: base.conversationKey,
      turnId: "turn-1",
      part: 1,
      customerId: "NG.3318264059917364520",
      type: "template",
      body: { type: "template", template: { name: "order_followup" } },
      queuedAt: 5,
    });
    const byOperator = outboundRecordOf(
      {
        tenantId: "acme",
        phoneNumberId: "106540352242922",
        conversationKey: base.conversationKey,
        recipient: "NG.3318264059917364520",
        turnId: "console-1",
        part: 0,
        message: { type: "text", text: { body: "I'm Ada, checking now" } },
        sentBy: "op-ada",
      },
      6,
    );
    expect(byOperator).toMatchObject({ sentBy: "op-ada", text: "I'm Ada, checking now" });
  });
});
