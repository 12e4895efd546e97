import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import { validateSend } from "../dev/index.js";
import { resolveResponderSettings } from "../router/index.js";
import { replyBody } from "./reply-body.js";

const tenant = (settings: Record<string, unknown>): TenantConfig => ({
  id: "t",
  appSecret: "s",
  verifyToken: "v",
  graphToken: "g",
  phoneNumberIds: [],
  throughputMps: 80,
  coalesce: { windowMs: 0, maxMs: 0 },
  staleAfterMs: 3_600_000,
  settings,
});

const menu = {
  text: "Wetin you want?",
  list: {
    button: "See menu",
    sections: [
      { title: "Food", rows: [{ id: "jollof", title: "Jollof rice", description: "With chicken" }] },
      { title: "Drinks", rows: [{ id: "zobo", title: "Zobo" }] },
    ],
  },
};

describe("reply templates", () => {
  it("turns a tenant's list reply into a list message Meta's validation accepts", () => {
    const settings = resolveResponderSettings(tenant({ replies: { product_inquiry: menu } }));
    const body = replyBody(settings.replies.product_inquiry as never);
    expect(body).toMatchObject({
      type: "interactive",
      interactive: { type: "list", action: { button: "See menu" } },
    });
    const checked = validateSend({ messaging_product: "whatsapp", to: "+2348012345678", ...body });
    expect(checked).toMatchObject({ ok: true });
  });

  it("refuses lists over Meta's limits and replies with both buttons and a list", () => {
    const rows = Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));
    expect(() =>
      resolveResponderSettings(
        tenant({ replies: { x: { text: "t", list: { button: "b", sections: [{ rows }] } } } }),
      ),
    ).toThrow(/at most 10 rows/);
    expect(() =>
      resolveResponderSettings(tenant({ replies: { x: { ...menu, buttons: [{ id: "a", title: "A" }] } } })),
    ).toThrow(/buttons or a list/);
    const untitled = {
      text: "t",
      list: { button: "b", sections: [{ rows: [rows[0]] }, { rows: [rows[1]] }] },
    };
    expect(() => resolveResponderSettings(tenant({ replies: { x: untitled } }))).toThrow(/needs a title/);
  });
});

describe("media replies", () => {
  const to = { messaging_product: "whatsapp", to: "+2348012345678" };

  it("keeps text replies as they were", () => {
    expect(replyBody({ text: "How far?" })).toEqual({ type: "text", text: { body: "How far?" } });
  });

  it("sends media by id or link, with the text as the caption where the kind takes one", () => {
    const image = replyBody({
      text: "Your receipt",
      media: { kind: "image", link: "https://cdn.test/r.png" },
    });
    expect(image).toEqual({
      type: "image",
      image: { link: "https://cdn.test/r.png", caption: "Your receipt" },
    });
    const document = replyBody({
      text: "ignored",
      media: { kind: "document", id: "42", caption: "Statement", fileName: "statement.pdf" },
    });
    expect(document).toEqual({
      type: "document",
      document: { id: "42", caption: "Statement", filename: "statement.pdf" },
    });
    const voice = replyBody({ text: "transcript", media: { kind: "audio", id: "43", voice: true } });
    expect(voice).toEqual({ type: "audio", audio: { id: "43", voice: true } });
    for (const body of [image, document, voice])
      expect(validateSend({ ...to, ...body })).toMatchObject({ ok: true });
    expect(() => replyBody({ text: "", media: { kind: "image", link: "http://cdn.test/r.png" } })).toThrow(
      /https/,
    );
  });
});
