import { describe, expect, it } from "vitest";
import { fixtureJson, fixtureNames } from "../../../test/support/meta-fixtures.js";
import { validateSend } from "./validate-send.js";

type Body = Record<string, unknown>;
const text = (extra: Body = {}): Body => ({
  messaging_product: "whatsapp",
  to: "+2348012345678",
  type: "text",
  text: { body: "hello" },
  ...extra,
});
const buttons = (titles: string[]): Body => ({
  messaging_product: "whatsapp",
  to: "+2348012345678",
  type: "interactive",
  interactive: {
    type: "button",
    body: { text: "Choose" },
    action: { buttons: titles.map((title, i) => ({ type: "reply", reply: { id: `b${i}`, title } })) },
  },
});
const list = (rowsPerSection: number[], rowTitle = "Row"): Body => ({
  messaging_product: "whatsapp",
  to: "+2348012345678",
  type: "interactive",
  interactive: {
    type: "list",
    body: { text: "Pick one" },
    action: {
      button: "Options",
      sections: rowsPerSection.map((count, s) => ({
        title: `Section ${s}`,
        rows: Array.from({ length: count }, (_, r) => ({ id: `r${s}-${r}`, title: rowTitle })),
      })),
    },
  },
});
const details = (body: unknown): string => {
  const result = validateSend(body);
  if (result.ok) throw new Error("expected the body to be refused");
  return result.details;
};

describe("validateSend", () => {
  it.each(fixtureNames("send-request-"))("accepts Meta's example request %s", (name) => {
    expect(validateSend(fixtureJson(name)).ok).toBe(true);
  });

  it("reads `to` over `recipient`, defaults the type to text, and tells a mark-as-read with typing apart", () => {
    const both = validateSend({ ...text({ recipient: "NG.1" }), type: undefined });
    expect(both).toMatchObject({ ok: true, send: { address: "+2348012345678", type: "text" } });
    const bsuid = validateSend(fixtureJson("send-request-text-bsuid"));
    expect(bsuid).toMatchObject({ ok: true, send: { address: "NG.3318264059917364520" } });
    expect(validateSend(fixtureJson("send-request-mark-read-typing"))).toMatchObject({
      ok: true,
      send: { kind: "read", typing: true },
    });
  });

  it.each([
    ["messaging_product missing", text({ messaging_product: undefined }), /messaging_product/],
    ["messaging_product not whatsapp", text({ messaging_product: "sms" }), /messaging_product/],
    ["no to and no recipient", text({ to: undefined }), /to or recipient/],
    ["text.body missing", text({ text: {} }), /text\['body'\]/],
    ["text.body of 4097 characters", text({ text: { body: "a".repeat(4097) } }), /at most 4096/],
    ["unknown type", text({ type: "hologram" }), /type/],
    ["4 buttons", buttons(["a", "b", "c", "d"]), /between 1 and 3/],
    ["a button title of 21 characters", buttons(["x".repeat(21)]), /at most 20/],
    ["two buttons with one title", buttons(["Yes", "Yes"]), /unique titles/],
    ["11 rows across sections", list([6, 5]), /between 1 and 10 rows/],
    ["a row title of 25 characters", list([1], "r".repeat(25)), /at most 24/],
    [
      "template without name",
      { ...text(), type: "template", template: { language: { code: "en" } } },
      /name/,
    ],
    [
      "template without language.code",
      { ...text(), type: "template", template: { name: "t", language: {} } },
      /code/,
    ],
    ["reaction without emoji", { ...text(), type: "reaction", reaction: { message_id: "wamid.1" } }, /emoji/],
    ["reaction without message_id", { ...text(), type: "reaction", reaction: { emoji: "x" } }, /message_id/],
    ["image without id or link", { ...text(), type: "image", image: { caption: "c" } }, /'id' or 'link'/],
    [
      "audio with both id and link",
      { ...text(), type: "audio", audio: { id: "1", link: "https://a/b" } },
      /exactly one/,
    ],
    [
      "biz_opaque_callback_data of 513 characters",
      text({ biz_opaque_callback_data: "c".repeat(513) }),
      /biz_opaque_callback_data.*at most 512/,
    ],
    ["biz_opaque_callback_data not a string", text({ biz_opaque_callback_data: 7 }), /must be a string/],
    ["mark-as-read without message_id", { messaging_product: "whatsapp", status: "read" }, /message_id/],
    [
      "typing indicator of another type",
      { messaging_product: "whatsapp", status: "read", message_id: "w", typing_indicator: { type: "audio" } },
      /typing_indicator/,
    ],
  ])("refuses %s", (_name, body, expected) => {
    expect(details(body)).toMatch(expected);
  });

  it("counts characters, not UTF-16 units: 4096 emoji fit in a text body", () => {
    expect(validateSend(text({ text: { body: "😀".repeat(4096) } })).ok).toBe(true);
    expect(validateSend(list([10])).ok).toBe(true);
    expect(validateSend(buttons(["a", "b", "c"])).ok).toBe(true);
    expect(validateSend(text({ biz_opaque_callback_data: "₦".repeat(512) })).ok).toBe(true);
  });
});
