import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiChatClient, type LlmClient, LlmError } from "../../src/agent/index.js";
import type { FakeLlmRule } from "../../src/dev/index.js";
import { RECEIPT_READING_NAME, ReceiptReadingError, readReceipt } from "../../src/vision/index.js";
import { LLM_KEY, trackFakeLlms } from "../support/fake-llm.js";
import {
  RECEIPT_FIXTURE_READING,
  RECEIPT_PNG,
  RECEIPT_RULE,
  RECEIPT_SHA256,
} from "../support/receipt-fixture.js";

const fake = trackFakeLlms(afterEach);
const receipt = RECEIPT_PNG;
const receiptSha = RECEIPT_SHA256;
const signal = () => AbortSignal.timeout(5_000);
const FIXTURE_READING = RECEIPT_FIXTURE_READING;
const receiptRule = RECEIPT_RULE;

function client(url: string): LlmClient {
  return createOpenAiChatClient({
    baseUrl: `${url}/v1`,
    apiKey: LLM_KEY,
    model: "gpt-4o",
    timeoutMs: 5_000,
    provider: "primary",
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (reason: unknown) => reason,
  );
}

describe("readReceipt against the fake LLM", () => {
  it("reads the fixture's slots in one structured-output call with the image as a data URL", async () => {
    const f = await fake({ apiKey: LLM_KEY, rules: [receiptRule] });
    const reading = await readReceipt(
      client(f.url),
      { bytes: receipt, mimeType: "image/png", caption: 'paid "15k" for\nORD-2291', model: "gpt-4o-vision" },
      signal(),
    );
    expect(reading.isReceipt).toBe(true);
    expect(reading.slots).toEqual({
      amount: { value: 15000, currency: "NGN" },
      date: "2025-03-14",
      bank: "GTBank",
      reference: "000013250314094211223344556",
      senderName: "ADEBAYO CHUKWUEMEKA OKAFOR",
      receiverName: "MAMA NKECHI FOODS LTD",
    });
    expect(reading.description).toBe(
      "Payment receipt: NGN 15,000.00, dated 2025-03-14, from GTBank, reference 000013250314094211223344556, " +
        "sender ADEBAYO CHUKWUEMEKA OKAFOR, receiver MAMA NKECHI FOODS LTD.",
    );
    expect(reading.model).toBe("gpt-4o-vision");
    expect(reading.usage.promptTokens).toBeGreaterThan(765);

    const [record] = f.fake.requests();
    expect(record?.images).toEqual([
      { source: "data", mimeType: "image/png", bytes: receipt.length, sha256: receiptSha, detail: "high" },
    ]);
    expect(record?.responseFormat).toEqual({ type: "json_schema", name: RECEIPT_READING_NAME });
    const body = record?.body as { messages: { role: string; content: unknown }[] };
    const user = body.messages.find((message) => message.role === "user");
    expect(user?.content).toEqual([
      { type: "text", text: `The customer sent this image with the caption "paid '15k' for ORD-2291".` },
      {
        type: "image_url",
        image_url: { url: `data:image/png;base64,${receipt.toString("base64")}`, detail: "high" },
      },
    ]);
  });

  it("gives no slots for an image the model says is not a receipt, and the model's one line", async () => {
    const f = await fake({
      apiKey: LLM_KEY,
      rules: [
        {
          when: { imageSha256: receiptSha },
          reply: { json: { ...FIXTURE_READING, isReceipt: false, description: "A photo of\njollof rice." } },
        },
      ],
    });
    const reading = await readReceipt(client(f.url), { bytes: receipt, mimeType: "image/png" }, signal());
    expect(reading).toMatchObject({
      isReceipt: false,
      slots: {},
      description: "Image, not a receipt: A photo of jollof rice.",
    });
  });

  it("answers with the plainest valid reading when no rule is scripted (the fake's default)", async () => {
    const f = await fake({ apiKey: LLM_KEY });
    const reading = await readReceipt(client(f.url), { bytes: receipt, mimeType: "image/png" }, signal());
    expect(reading).toMatchObject({ isReceipt: false, slots: {} });
    const body = f.fake.requests()[0]?.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(body.messages)).toContain("without a caption");
  });

  it.each([
    ["not JSON", { content: "Sure! The receipt shows ₦15,000." }, "not JSON"],
    ["the wrong shape", { json: { isReceipt: "yes", description: "x" } }, "isReceipt"],
  ])("throws ReceiptReadingError when the answer is %s", async (_name, reply, problem) => {
    const f = await fake({
      apiKey: LLM_KEY,
      rules: [{ when: { imageSha256: receiptSha }, reply } as FakeLlmRule],
    });
    const error = await failure(
      readReceipt(client(f.url), { bytes: receipt, mimeType: "image/png" }, signal()),
    );
    expect(error).toBeInstanceOf(ReceiptReadingError);
    expect((error as ReceiptReadingError).code).toBe("SS_VISION_MALFORMED_READING");
    expect((error as ReceiptReadingError).message).toContain(problem);
  });

  it("throws ReceiptReadingError for JSON cut short by max tokens", async () => {
    const cut: LlmClient = {
      complete: async () => ({
        content: '{"isReceipt":tr',
        toolCalls: [],
        usage: { promptTokens: 900, completionTokens: 4 },
        provider: "primary",
        model: "m",
      }),
    };
    const error = await failure(readReceipt(cut, { bytes: receipt, mimeType: "image/png" }, signal()));
    expect(error).toBeInstanceOf(ReceiptReadingError);
    expect((error as ReceiptReadingError).content).toBe('{"isReceipt":tr');
  });

  it("lets the provider's failure through as LlmError, and refuses a type that is not an image", async () => {
    const f = await fake({ apiKey: LLM_KEY, faults: { failNext: { count: 1, status: 503 } } });
    expect(
      await failure(readReceipt(client(f.url), { bytes: receipt, mimeType: "image/png" }, signal())),
    ).toBeInstanceOf(LlmError);
    await expect(
      readReceipt(client(f.url), { bytes: receipt, mimeType: "application/pdf" }, signal()),
    ).rejects.toThrow(TypeError);
  });
});
