import { describe, expect, it } from "vitest";
import { fixtureJson } from "../../test/support/meta-fixtures.js";
import { validateSend } from "../dev/index.js";
import { InvalidMediaMessageError, MediaTooLargeError, UnsupportedMediaTypeError } from "./errors.js";
import { mediaMessageBody } from "./media-message-body.js";
import { checkOutboundMedia } from "./outbound-media.js";

const MB = 1024 * 1024;
const to = { messaging_product: "whatsapp", recipient_type: "individual", to: "+2348012345678" };

describe("Meta's outbound media rules", () => {
  it("takes each kind's types up to its limit", () => {
    const ok = [
      { kind: "image", mimeType: "image/jpeg", size: 5 * MB },
      { kind: "image", mimeType: "IMAGE/PNG", size: 1 },
      { kind: "audio", mimeType: "audio/mpeg", size: 16 * MB },
      { kind: "audio", mimeType: "audio/ogg; codecs=opus", size: 1, voice: true },
      { kind: "audio", mimeType: 'audio/ogg;codecs="opus"', size: 1 },
      { kind: "document", mimeType: "application/pdf", size: 100 * MB },
      { kind: "video", mimeType: "video/3gpp", size: 16 * MB },
      { kind: "sticker", mimeType: "image/webp", size: 100 * 1024 },
      { kind: "sticker", mimeType: "image/webp", size: 500 * 1024, animated: true },
    ] as const;
    for (const file of ok) expect(() => checkOutboundMedia(file), JSON.stringify(file)).not.toThrow();
  });

  it("refuses a type its kind does not take, plain OGG and a voice note that is not OGG/OPUS", () => {
    const wrong = [
      { kind: "image", mimeType: "image/gif", size: 1 },
      { kind: "image", mimeType: "image/webp", size: 1 },
      { kind: "audio", mimeType: "audio/ogg", size: 1 },
      { kind: "audio", mimeType: "audio/ogg; codecs=vorbis", size: 1 },
      { kind: "audio", mimeType: "audio/mpeg", size: 1, voice: true },
      { kind: "document", mimeType: "application/zip", size: 1 },
      { kind: "video", mimeType: "video/webm", size: 1 },
    ] as const;
    for (const file of wrong) {
      expect(() => checkOutboundMedia(file), JSON.stringify(file)).toThrow(UnsupportedMediaTypeError);
    }
  });

  it("refuses a file over its kind's limit", () => {
    const over = [
      { kind: "image", mimeType: "image/png", size: 5 * MB + 1 },
      { kind: "audio", mimeType: "audio/aac", size: 16 * MB + 1 },
      { kind: "sticker", mimeType: "image/webp", size: 100 * 1024 + 1 },
      { kind: "document", mimeType: "text/plain", size: 100 * MB + 1 },
    ] as const;
    for (const file of over) {
      expect(() => checkOutboundMedia(file)).toThrow(MediaTooLargeError);
    }
  });
});

describe("media message bodies", () => {
  it("writes Meta's bodies, as in the send fixtures", () => {
    expect({
      ...to,
      ...mediaMessageBody({ kind: "audio", id: "1453920184736251", voice: true }),
    }).toEqual(fixtureJson("send-request-audio-voice-by-id"));
    const link = "https://cdn.example.com/help/how-to-find-reference.png";
    expect({
      ...to,
      ...mediaMessageBody({ kind: "image", link, caption: "See where to find your transfer reference" }),
    }).toEqual(fixtureJson("send-request-image-by-link"));
    const document = mediaMessageBody({
      kind: "document",
      id: "7",
      caption: "Receipt",
      fileName: "receipt.pdf",
    });
    expect(document).toEqual({
      type: "document",
      document: { id: "7", caption: "Receipt", filename: "receipt.pdf" },
    });
    expect(validateSend({ ...to, ...document })).toMatchObject({ ok: true });
  });

  it("refuses bodies Meta would refuse", () => {
    const bad = [
      { kind: "image" },
      { kind: "image", id: "1", link: "https://a.test/x.png" },
      { kind: "image", link: "http://a.test/x.png" },
      { kind: "audio", id: "1", caption: "hi" },
      { kind: "image", id: "1", fileName: "x.png" },
      { kind: "image", id: "1", voice: true },
      { kind: "image", id: "1", caption: "x".repeat(1025) },
    ] as const;
    for (const media of bad)
      expect(() => mediaMessageBody(media), JSON.stringify(media)).toThrow(InvalidMediaMessageError);
  });
});
