import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnsweringGateway, startAnsweringGateway } from "../support/answering-gateway.js";
import { PHONE_NUMBER_ID } from "../support/fake-graph.js";

// Invented payloads in the shapes of docs/whatsapp-cloud-api.md §3 and §11, posted to the embedded gateway.
const CUSTOMER = "2348031230001";
const now = () => String(Math.floor(Date.now() / 1000));
let n = 0;
const wamid = () => `wamid.unanswered.${n++}`;

function webhook(
  message: Record<string, unknown>,
  options: { phoneNumberId?: string; contacts?: unknown[] } = {},
) {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "114098765432109",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: "2349012345678",
                phone_number_id: options.phoneNumberId ?? PHONE_NUMBER_ID,
              },
              contacts: options.contacts ?? [{ wa_id: CUSTOMER, profile: { name: "Ada" } }],
              messages: [{ from: CUSTOMER, id: wamid(), timestamp: now(), ...message }],
            },
          },
        ],
      },
    ],
  });
}
const idOf = (body: string): string => JSON.parse(body).entry[0].changes[0].value.messages[0].id;

describe("what the gateway answers, end to end (embedded)", () => {
  let g: AnsweringGateway;
  beforeAll(async () => {
    g = await startAnsweringGateway({ WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID });
  });
  afterAll(async () => {
    await g?.close();
  });

  const post = async (body: string) => {
    const before = g.fake.fake.messages().length;
    expect(await g.post(body)).toBe(200);
    await g.settled();
    return g.fake.fake.messages().slice(before);
  };

  it("answers a text, to the wa_id with its +", async () => {
    const sent = await post(webhook({ type: "text", text: { body: "hi" } }));
    expect(sent.map((m) => m.to)).toEqual([`+${CUSTOMER}`]);
  });

  it.each([
    ["a reaction", { type: "reaction", reaction: { message_id: "wamid.ours", emoji: "🙏" } }, "reaction"],
    [
      "a reaction removed",
      { type: "reaction", reaction: { message_id: "wamid.ours", emoji: "" } },
      "reaction",
    ],
    [
      "an edit",
      {
        type: "edit",
        edit: { original_message_id: "wamid.old", message: { type: "text", text: { body: "5k" } } },
      },
      "edit",
    ],
    ["a revoke", { type: "revoke", revoke: { original_message_id: "wamid.old" } }, "revoke"],
    [
      "a system notice",
      { type: "system", system: { type: "user_changed_number", wa_id: "2348031239999" } },
      "system",
    ],
    [
      "a group message",
      { type: "text", text: { body: "hi all" }, group_id: "120363000000000002@g.us" },
      "group",
    ],
  ])("records %s and never answers it", async (_label, message, reason) => {
    const body = webhook(message);
    expect(await post(body)).toEqual([]);
    const row = await g.logged(idOf(body));
    expect(row?.content).toMatchObject({ unanswerable: reason });
  });

  it("keeps a reaction's emoji and target, and an edit's target and new text, in the log", async () => {
    const reaction = webhook({ type: "reaction", reaction: { message_id: "wamid.ours2", emoji: "👍🏽" } });
    await post(reaction);
    expect((await g.logged(idOf(reaction)))?.content).toMatchObject({
      targetWamid: "wamid.ours2",
      content: { emoji: "👍🏽" },
    });
    const edit = webhook({
      type: "edit",
      edit: { original_message_id: "wamid.old2", message: { type: "text", text: { body: "na 5k" } } },
    });
    await post(edit);
    expect(await g.logged(idOf(edit))).toMatchObject({
      type: "edit",
      text: "na 5k",
      content: { targetWamid: "wamid.old2" },
    });
  });

  it("answers a username customer by `recipient`, and a BSUID in `from` never as `to`", async () => {
    const bsuid = "NG.4815162342108000001";
    const sent = await post(
      webhook({ from: bsuid, type: "text", text: { body: "hi" } }, { contacts: [{ wa_id: bsuid }] }),
    );
    expect(sent.map((m) => [m.to, m.recipient])).toEqual([[undefined, bsuid]]);
  });

  it("records, and never answers, a `from` that is no address", async () => {
    const body = webhook({ from: "PHONE_NUMBER", type: "text", text: { body: "hi" } }, { contacts: [] });
    expect(await post(body)).toEqual([]);
    expect((await g.logged(idOf(body)))?.customerId).toBe("PHONE_NUMBER");
  });

  it("records a message to a number the tenant does not list, and answers nothing from it", async () => {
    const body = webhook({ type: "text", text: { body: "hi" } }, { phoneNumberId: "109876543210987" });
    expect(await post(body)).toEqual([]);
    expect((await g.logged(idOf(body)))?.content).toMatchObject({ unanswerable: "unlisted_number" });
    expect(await g.metrics()).toMatch(
      /ss_ingress_unanswered_messages_total\{tenant="default",reason="unlisted_number"\} 1/,
    );
  });

  it("answers a voice note sent with the legacy type, and logs it as audio with its media id", async () => {
    const body = webhook({
      type: "voice",
      voice: { id: "media-voice-1", mime_type: "audio/ogg; codecs=opus" },
    });
    expect(await post(body)).toHaveLength(1);
    expect(await g.logged(idOf(body))).toMatchObject({ type: "audio", mediaId: "media-voice-1" });
  });

  it("records a location with quoted coordinates as a location", async () => {
    const body = webhook({ type: "location", location: { latitude: "6.4474", longitude: "3.4726" } });
    await post(body);
    expect(await g.logged(idOf(body))).toMatchObject({
      type: "location",
      content: { content: { latitude: 6.4474, longitude: 3.4726 } },
    });
  });

  it("orders a message from the future by its arrival, and says so", async () => {
    const body = webhook({
      type: "text",
      text: { body: "hi" },
      timestamp: String(Math.floor(Date.now() / 1000) + 86_400),
    });
    expect(await post(body)).toHaveLength(1);
    const row = await g.logged(idOf(body));
    expect(row?.metaTimestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(row?.content).toMatchObject({ futureTimestamp: expect.any(Number) });
    expect(await g.metrics()).toMatch(/ss_ingress_future_timestamps_total\{tenant="default"\} 1/);
  });
});
