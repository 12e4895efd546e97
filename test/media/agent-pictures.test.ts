import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeLlmRequestRecord, FakeLlmRule } from "../../src/dev/index.js";
import { eventually } from "../support/eventually.js";
import { LLM_KEY, trackFakeLlms } from "../support/fake-llm.js";
import { media, startMediaGateway, text } from "../support/media-gateway.js";
import { RECEIPT_PNG, RECEIPT_RULE, RECEIPT_SHA256 } from "../support/receipt-fixture.js";

const startLlm = trackFakeLlms(afterEach);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const RECEIPT_DATA_URL = `data:image/png;base64,${RECEIPT_PNG.toString("base64")}`;
/** The agent answers this only when its last user message holds the receipt's picture. */
const SEES_PICTURE = "I see the receipt picture you sent.";
const AGENT_SEES_RULE: FakeLlmRule = {
  when: { imageSha256: RECEIPT_SHA256 },
  reply: { content: SEES_PICTURE },
};

/** The fake LLM (receipt reading first, then the agent's picture rule) and the gateway answering through it. */
async function startWithLlm(mediaSettings: Record<string, unknown>, tenant: Record<string, unknown> = {}) {
  const llm = await startLlm({ apiKey: LLM_KEY, rules: [RECEIPT_RULE, AGENT_SEES_RULE] });
  const gateway = await startMediaGateway(
    cleanups,
    { LLM_BASE_URL: `${llm.url}/v1`, LLM_API_KEY: LLM_KEY, LLM_MODEL: "gpt-4o" },
    mediaSettings,
    { ownResponder: true, tenant },
  );
  return { llm, gateway };
}

/** The agent's requests: every chat call but the receipt readings (structured output). */
const agentCalls = (requests: readonly FakeLlmRequestRecord[]) =>
  requests.filter((request) => request.responseFormat === undefined);

function lastUserContent(request: FakeLlmRequestRecord | undefined): unknown {
  const messages =
    (request?.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  return messages.filter((message) => message.role === "user").at(-1)?.content;
}

/** Files under `dir` (the database, its WAL, kept media) holding any of `needles`. */
function filesHolding(dir: string, needles: readonly Buffer[]): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => {
      const bytes = readFileSync(path);
      return needles.some((needle) => bytes.includes(needle));
    });
}

// A stretch from inside the picture (past the PNG header every PNG shares), raw and as base64.
const RAW_SLICE = RECEIPT_PNG.subarray(2000, 2064);
const BASE64_SLICE = Buffer.from(RECEIPT_PNG.toString("base64").slice(4000, 4096));

describe("pictures as the agent's image input (embedded)", () => {
  it("with vision the agent's user message carries the downloaded picture as a data URL, beside its reading; no byte is journaled or logged", async () => {
    const { llm, gateway } = await startWithLlm({ vision: true });
    // Words the router cannot place, so the agent answers the turn.
    const picture = media(gateway, "image", RECEIPT_PNG, "image/png", { caption: "xyzzy plugh" });
    expect(await gateway.post([picture])).toBe(200);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    // The fake answers SEES_PICTURE only to a request whose last user message holds these very bytes.
    expect(gateway.sent()).toEqual([SEES_PICTURE]);

    const [agent, ...more] = agentCalls(llm.fake.requests());
    expect(more).toEqual([]);
    expect(lastUserContent(agent)).toEqual([
      {
        type: "text",
        text: expect.stringMatching(/Payment receipt: NGN 15,000\.00[\s\S]*GTBank[\s\S]*xyzzy plugh/),
      },
      { type: "image_url", image_url: { url: RECEIPT_DATA_URL } },
    ]);
    expect(agent?.images).toEqual([
      expect.objectContaining({ source: "data", bytes: RECEIPT_PNG.length, sha256: RECEIPT_SHA256 }),
    ]);
    // The picture was downloaded once, for the reading; the agent got those bytes, not Meta's URL.
    const downloads = gateway.fake.fake.requests().filter((request) => request.kind === "media-download");
    expect(downloads).toHaveLength(1);
    expect(JSON.stringify(agent?.body)).not.toMatch(/127\.0\.0\.1|media-download|lookaside/);
    // The turn journal, the message log and the history are in the data directory: no byte of it there.
    expect(filesHolding(gateway.dataDir, [RAW_SLICE, BASE64_SLICE])).toEqual([]);
    expect(JSON.stringify(await gateway.reading(picture.wamid))).not.toContain(BASE64_SLICE.toString());
  });

  it("only the current turn's picture: the next turn's agent call carries no image", async () => {
    const { llm, gateway } = await startWithLlm({ vision: true });
    await gateway.post([media(gateway, "image", RECEIPT_PNG, "image/png", { caption: "xyzzy plugh" })]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    await gateway.post([text("xyzzy plugh again")]);
    await eventually(() => agentCalls(llm.fake.requests()).length >= 2, 10_000);
    const [, next] = agentCalls(llm.fake.requests());
    expect(next?.images).toBeUndefined();
    expect(JSON.stringify(next?.body)).not.toContain("data:image/");
  });

  it("without vision, or with agentImages: false, no image part reaches the agent", async () => {
    for (const settings of [{}, { vision: true, agentImages: false }]) {
      const { llm, gateway } = await startWithLlm(settings);
      await gateway.post([media(gateway, "image", RECEIPT_PNG, "image/png", { caption: "xyzzy plugh" })]);
      await eventually(() => gateway.sent().length >= 1, 10_000);
      expect(gateway.sent()[0]).not.toBe(SEES_PICTURE);
      const agent = agentCalls(llm.fake.requests());
      expect(agent).toHaveLength(1);
      expect(agent[0]?.images).toBeUndefined();
      expect(typeof lastUserContent(agent[0])).toBe("string");
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    }
  });
});

describe("receipt slots reach the router (embedded)", () => {
  const replies = {
    failed_transaction: {
      needs: ["amount", "reference"],
      text: { en: "We see {amount}, reference {reference}. We are checking it now." },
      ask: { en: "Sorry! {known}Please send {missing} so we can check it." },
      known: { en: "I see {seen}. " },
    },
  };

  it("a receipt picture and 'I don transfer, e never reach' in one turn: routed, the reply filled from the receipt", async () => {
    const { llm, gateway } = await startWithLlm(
      { vision: true },
      { coalesce: { windowMs: 400, maxMs: 3000 }, replies, router: { languages: ["en"] } },
    );
    expect(await gateway.post([media(gateway, "image", RECEIPT_PNG, "image/png")])).toBe(200);
    expect(await gateway.post([text("I don transfer, e never reach")])).toBe(200);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.sent()).toEqual([
      "We see ₦15,000, reference 000013250314094211223344556. We are checking it now.",
    ]);
    // The router answered: the model was asked to read the picture, never to answer the turn.
    expect(agentCalls(llm.fake.requests())).toEqual([]);
  });

  it("without the picture the same words get the question for the missing slots", async () => {
    const { gateway } = await startWithLlm({ vision: true }, { replies, router: { languages: ["en"] } });
    await gateway.post([text("I don transfer, e never reach")]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    expect(gateway.sent()).toEqual([
      "Sorry! Please send the amount and the transaction reference so we can check it.",
    ]);
  });
});
