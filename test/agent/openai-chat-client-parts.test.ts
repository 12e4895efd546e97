import { createHash, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiChatClient, type LlmClient, withFallback } from "../../src/agent/index.js";
import { LLM_KEY, type RunningFakeLlm, trackFakeLlms } from "../support/fake-llm.js";

const fake = trackFakeLlms(afterEach);

/** The PNG signature and a header chunk's start: what the fake checks an image by. */
const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
const pngUrl = `data:image/png;base64,${png.toString("base64")}`;
const signal = () => AbortSignal.timeout(5_000);

/** The JSON body of the fake's `index`th request. */
function bodyOf(running: RunningFakeLlm, index = 0): Record<string, unknown> {
  const record = running.fake.requests()[index];
  if (record === undefined) throw new Error(`no request ${index}`);
  return record.body as Record<string, unknown>;
}

function client(url: string, provider = "primary"): LlmClient {
  return createOpenAiChatClient({
    baseUrl: `${url}/v1`,
    apiKey: LLM_KEY,
    model: "gpt-4o-mini",
    timeoutMs: 5_000,
    provider,
  });
}

describe("the OpenAI-compatible client: content parts and structured output on the wire", () => {
  it("sends a user message's text and image parts as OpenAI's content array", async () => {
    const f = await fake({ apiKey: LLM_KEY });
    await client(f.url).complete(
      {
        messages: [
          { role: "system", content: "You read receipts." },
          {
            role: "user",
            content: [
              { type: "text", text: "my payment" },
              { type: "image_url", image_url: { url: pngUrl, detail: "low" } },
            ],
          },
        ],
        tools: [],
      },
      signal(),
    );
    const [record] = f.fake.requests();
    expect(record?.status).toBe(200);
    expect(bodyOf(f).messages).toEqual([
      { role: "system", content: "You read receipts." },
      {
        role: "user",
        content: [
          { type: "text", text: "my payment" },
          { type: "image_url", image_url: { url: pngUrl, detail: "low" } },
        ],
      },
    ]);
    expect(record?.images).toEqual([
      { source: "data", mimeType: "image/png", bytes: png.length, sha256: expect.any(String), detail: "low" },
    ]);
  });

  it("sends a 300 KB picture whole, beside text that JSON must escape and text that is not ASCII", async () => {
    const f = await fake({ apiKey: LLM_KEY });
    const picture = Buffer.concat([png, randomBytes(300_000)]);
    const url = `data:image/png;base64,${picture.toString("base64")}`;
    const messages = [
      { role: "system" as const, content: 'Read "receipts" \\ only.' },
      {
        role: "user" as const,
        content: [
          { type: "text" as const, text: "abeg check am ₦15k 🙏" },
          { type: "image_url" as const, image_url: { url } },
        ],
      },
    ];
    await client(f.url).complete({ messages, tools: [] }, signal());
    const [record] = f.fake.requests();
    expect(record?.status).toBe(200);
    expect(bodyOf(f).messages).toEqual(messages);
    expect(record?.images).toEqual([
      {
        source: "data",
        mimeType: "image/png",
        bytes: picture.length,
        sha256: createHash("sha256").update(picture).digest("hex"),
        detail: "auto",
      },
    ]);
  });

  it("sends text-only messages as plain strings, with no response_format, as before", async () => {
    const f = await fake({ apiKey: LLM_KEY });
    await client(f.url).complete({ messages: [{ role: "user", content: "hello" }], tools: [] }, signal());
    const body = bodyOf(f);
    expect(body.messages).toEqual([{ role: "user", content: "hello" }]);
    expect(body).not.toHaveProperty("response_format");
    expect(f.fake.requests()[0]?.images).toBeUndefined();
  });

  it("asks for a strict json_schema and gets a matching object back", async () => {
    const f = await fake({ apiKey: LLM_KEY });
    const schema = {
      type: "object",
      additionalProperties: false,
      required: ["ok", "note"],
      properties: { ok: { type: "boolean" }, note: { type: ["string", "null"] } },
    };
    const completion = await client(f.url).complete(
      {
        messages: [{ role: "user", content: "check" }],
        tools: [],
        responseFormat: { name: "check_result", schema },
      },
      signal(),
    );
    const record = f.fake.requests()[0];
    expect(bodyOf(f).response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "check_result", schema, strict: true },
    });
    expect(record?.responseFormat).toEqual({ type: "json_schema", name: "check_result" });
    expect(JSON.parse(completion.content ?? "")).toEqual({ ok: false, note: null });
  });

  it("refuses an image that is not a data URL with a TypeError, before any request", async () => {
    const f = await fake({ apiKey: LLM_KEY });
    for (const url of [
      "https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1",
      "http://x/a.png",
      "file:///a.png",
    ]) {
      await expect(
        client(f.url).complete(
          { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }], tools: [] },
          signal(),
        ),
      ).rejects.toThrow(TypeError);
    }
    expect(f.fake.requests()).toHaveLength(0);
  });

  it("gives the fallback the image and the response format too", async () => {
    const primary = await fake({ apiKey: LLM_KEY, faults: { failNext: { count: 1, status: 503 } } });
    const fallback = await fake({ apiKey: LLM_KEY });
    const schema = {
      type: "object",
      additionalProperties: false,
      required: ["ok"],
      properties: { ok: { type: "boolean" } },
    };
    const completion = await withFallback(client(primary.url), client(fallback.url, "fallback")).complete(
      {
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: pngUrl } }] }],
        tools: [],
        responseFormat: { name: "ok", schema },
        model: "primary-only-model",
      },
      signal(),
    );
    expect(completion.provider).toBe("fallback");
    const record = fallback.fake.requests()[0];
    expect(record?.images).toHaveLength(1);
    expect(record?.responseFormat).toEqual({ type: "json_schema", name: "ok" });
    expect(bodyOf(fallback).model).toBe("gpt-4o-mini");
  });
});
