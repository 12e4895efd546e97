import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { refusal } from "./refusal.test-support.js";
import { validateChatRequest } from "./validate-chat-request.js";

/** The PNG signature and a header chunk's start: enough for the fake's format check. */
const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
const pngUrl = `data:image/png;base64,${png.toString("base64")}`;

function withUser(content: unknown) {
  return { model: "m", messages: [{ role: "user", content }] };
}

describe("content parts, as OpenAI checks them", () => {
  it("reads text and data-URL image parts of a user message: text joined, image decoded", () => {
    const request = validateChatRequest(
      withUser([
        { type: "text", text: "my receipt " },
        { type: "image_url", image_url: { url: pngUrl, detail: "high" } },
        { type: "text", text: "abeg" },
      ]),
    );
    const message = request.messages[0];
    expect(message?.text).toBe("my receipt abeg");
    expect(message?.images).toEqual([
      {
        source: "data",
        mimeType: "image/png",
        bytes: png.length,
        sha256: createHash("sha256").update(png).digest("hex"),
        detail: "high",
      },
    ]);
  });

  it("notes an https image URL without fetching it, detail auto by default", () => {
    const request = validateChatRequest(
      withUser([{ type: "image_url", image_url: { url: "https://example.com/a.png" } }]),
    );
    expect(request.messages[0]?.images).toEqual([
      { source: "url", url: "https://example.com/a.png", detail: "auto" },
    ]);
  });

  it("refuses an image part without a url string, or with an unknown detail", () => {
    expect(refusal(withUser([{ type: "image_url", image_url: {} }]))).toMatchObject({
      param: "messages[0].content[0].image_url.url",
      code: "missing_required_parameter",
    });
    expect(refusal(withUser([{ type: "image_url", image_url: "https://example.com/a.png" }])).code).toBe(
      "missing_required_parameter",
    );
    expect(
      refusal(withUser([{ type: "image_url", image_url: { url: pngUrl, detail: "max" } }])),
    ).toMatchObject({
      param: "messages[0].content[0].image_url.detail",
      code: "invalid_value",
    });
  });

  it("refuses URLs that are neither http(s) nor data, and data that is not an image OpenAI reads", () => {
    expect(refusal(withUser([{ type: "image_url", image_url: { url: "ftp://x/a.png" } }])).code).toBe(
      "invalid_value",
    );
    const text = `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`;
    expect(refusal(withUser([{ type: "image_url", image_url: { url: text } }])).code).toBe(
      "invalid_image_format",
    );
    const lying = `data:image/png;base64,${Buffer.from("not a png at all").toString("base64")}`;
    expect(refusal(withUser([{ type: "image_url", image_url: { url: lying } }])).code).toBe(
      "invalid_image_format",
    );
  });

  it("lets only user messages send images, and every part needs a known type", () => {
    const system = { role: "system", content: [{ type: "image_url", image_url: { url: pngUrl } }] };
    expect(refusal({ model: "m", messages: [system, { role: "user", content: "hi" }] })).toMatchObject({
      message: "Invalid value: 'image_url'. Supported values are: 'text'.",
      param: "messages[0].content[0].type",
    });
    expect(refusal(withUser([{ type: "video", url: "x" }])).param).toBe("messages[0].content[0].type");
    expect(refusal(withUser([{ type: "text" }])).param).toBe("messages[0].content[0].text");
  });
});
