import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { LLM_KEY, trackFakeLlms } from "../support/fake-llm.js";
import { media, startMediaGateway, text } from "../support/media-gateway.js";
import { RECEIPT_PNG, RECEIPT_RULE } from "../support/receipt-fixture.js";

const startLlm = trackFakeLlms(afterEach);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const fixture = (name: string) => readFileSync(new URL(`../fixtures/media/${name}`, import.meta.url));
const receipt = RECEIPT_PNG;
const invoice = fixture("order-invoice.pdf");

/** The user message of each chat request the fake LLM received, as text (image parts named). */
function userTexts(requests: readonly { body: unknown }[]): string[] {
  return requests.map((request) => {
    const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
    const user = messages.filter((message) => message.role === "user").at(-1);
    if (typeof user?.content === "string") return user.content;
    return JSON.stringify(user?.content);
  });
}

/** The fake LLM (with the receipt rule) and the gateway answering with its own responder through it. */
async function startWithLlm(media: Record<string, unknown>) {
  const llm = await startLlm({ apiKey: LLM_KEY, rules: [RECEIPT_RULE] });
  const gateway = await startMediaGateway(
    cleanups,
    { LLM_BASE_URL: `${llm.url}/v1`, LLM_API_KEY: LLM_KEY, LLM_MODEL: "gpt-4o" },
    media,
    { ownResponder: true },
  );
  return { llm, gateway };
}

describe("pictures and documents in a turn (embedded)", () => {
  it("a transfer receipt is read into slots by the tenant's vision model, and the agent is told them", async () => {
    const { llm, gateway } = await startWithLlm({ vision: true });
    const picture = media(gateway, "image", receipt, "image/png");
    expect(await gateway.post([picture])).toBe(200);
    await eventually(() => gateway.fake.fake.messages().length >= 1, 10_000);
    expect(await gateway.reading(picture.wamid)).toMatchObject({
      kind: "image",
      size: receipt.length,
      receipt: {
        amount: { value: 15000, currency: "NGN" },
        bank: "GTBank",
        reference: "000013250314094211223344556",
      },
    });
    const requests = llm.fake.requests();
    // First the picture, as a data URL of the downloaded bytes; then the agent, told what it showed.
    expect(requests[0]?.images).toHaveLength(1);
    expect(requests[0]?.images?.[0]?.source).toBe("data");
    expect(userTexts(requests.slice(1)).join("\n")).toMatch(/Payment receipt: NGN 15,000\.00.*GTBank/);
    expect(userTexts(requests).join("\n")).not.toMatch(/127\.0\.0\.1|media-download/);
  });

  it("without vision a picture is never downloaded: the agent gets its description and caption", async () => {
    const { llm, gateway } = await startWithLlm({});
    // Words the router cannot place, so the agent answers the turn.
    await gateway.post([media(gateway, "image", receipt, "image/png", { caption: "xyzzy plugh" })]);
    await eventually(() => gateway.fake.fake.messages().length >= 1, 10_000);
    expect(gateway.fake.fake.requests().filter((request) => request.kind.startsWith("media"))).toEqual([]);
    expect(
      llm.fake.requests().every((request) => request.images === undefined || request.images.length === 0),
    ).toBe(true);
    expect(userTexts(llm.fake.requests()).join("\n")).toMatch(/\[image: image\/png, caption "xyzzy plugh"/);
  });

  it("a PDF's first pages reach the agent as text, with its file name", async () => {
    const { llm, gateway } = await startWithLlm({});
    const pdf = media(gateway, "document", invoice, "application/pdf", { filename: "invoice.pdf" });
    await gateway.post([pdf, text("xyzzy plugh")]);
    await eventually(() => gateway.fake.fake.messages().length >= 1, 10_000);
    expect(await gateway.reading(pdf.wamid)).toMatchObject({
      kind: "document",
      fileName: "invoice.pdf",
      extractedText: expect.stringMatching(/INV-2291[\s\S]*15,000\.00/),
    });
    expect(userTexts(llm.fake.requests()).join("\n")).toMatch(/text of the file[\s\S]*INV-2291/);
  });
});

describe("pictures and documents that cannot be opened (embedded)", () => {
  it("a picture alone whose download fails for good: the one line, naming a picture, and no silence", async () => {
    const { gateway } = await startWithLlm({ vision: true });
    const picture = media(gateway, "image", receipt, "image/png");
    gateway.fake.fake.setFaults({
      mediaFaults: [{ mediaId: (picture as { mediaId: string }).mediaId, corrupt: true }],
    });
    await gateway.post([picture]);
    await eventually(() => gateway.fake.fake.messages().length >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.sent()).toEqual([expect.stringMatching(/picture/)]);
    expect(await gateway.reading(picture.wamid)).toMatchObject({
      failure: { code: "SS_MEDIA_CHECKSUM_MISMATCH" },
    });
  });

  it("a captioned PDF that cannot be opened: fresh, the line and an answer to the caption; hours late, the line alone", async () => {
    const gateway = await startMediaGateway(cleanups, {});
    const corruptPdf = (timestamp: number) => {
      const file = media(gateway, "document", invoice, "application/pdf", {
        filename: "order.pdf",
        caption: "my order",
      });
      gateway.fake.fake.setFaults({
        mediaFaults: [{ mediaId: (file as { mediaId: string }).mediaId, corrupt: true }],
      });
      return { ...file, timestamp };
    };
    const now = Math.floor(Date.now() / 1000);
    await gateway.post([corruptPdf(now)]);
    await eventually(() => gateway.sent().length >= 2, 10_000);
    expect(gateway.sent()).toEqual([expect.stringMatching(/file/), "heard: my order"]);

    await gateway.post([corruptPdf(now - 3 * 3600)]);
    await eventually(() => gateway.sent().length >= 3, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.sent().slice(2)).toEqual([expect.stringMatching(/file/)]);
    expect(gateway.responder.turns).toHaveLength(1);
  });

  it("a locked PDF is opened but not read: the agent is told so and answers, no notice", async () => {
    const { llm, gateway } = await startWithLlm({});
    const locked = media(gateway, "document", fixture("order-invoice-locked.pdf"), "application/pdf", {
      filename: "statement.pdf",
    });
    await gateway.post([locked]);
    await eventually(() => gateway.fake.fake.messages().length >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.sent()).toHaveLength(1);
    expect(gateway.sent()[0]).not.toMatch(/no fit open/);
    expect(await gateway.reading(locked.wamid)).toMatchObject({
      failure: { code: "SS_DOCUMENTS_PDF_ENCRYPTED" },
    });
    expect(userTexts(llm.fake.requests()).join("\n")).toMatch(/statement\.pdf.*contents were not read/);
  });
});
