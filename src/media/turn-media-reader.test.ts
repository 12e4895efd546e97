import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import type { HistoryEntry } from "../conversation/index.js";
import { createLogger } from "../observability/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import { MEDIA_DEFAULTS, resolveMediaSettings } from "./media-settings.js";
import { createTurnMediaReader, type TurnMediaReaderDeps } from "./turn-media-reader.js";

const tenant = {
  id: "acme",
  settings: {},
  secrets: {},
} as unknown as TenantConfig;

let n = 0;
function media(type: "audio" | "image" | "document", content: Record<string, unknown> = {}): InboundMessage {
  n += 1;
  return {
    tenantId: "acme",
    phoneNumberId: "1065",
    wabaId: "1",
    conversationKey: "acme:1065:234",
    wamid: `wamid.m${n}`,
    timestamp: 1,
    receivedAt: 1,
    type,
    customer: { waId: "234" },
    content: {
      id: `media-${n}`,
      mime_type: type === "audio" ? "audio/ogg; codecs=opus" : "image/jpeg",
      sha256: "c2hh",
      ...content,
    },
  };
}

function deps(overrides: Partial<TurnMediaReaderDeps> = {}) {
  const history: HistoryEntry[] = [];
  const downloads: string[] = [];
  const base: TurnMediaReaderDeps = {
    settings: resolveMediaSettings,
    download: async (_tenant, request) => {
      downloads.push(request.mediaId);
      return { bytes: Buffer.from("bytes"), mimeType: "audio/ogg", size: 5, sha256: "c2hh" };
    },
    transcriber: () => async () => ({ text: "my money never drop", provider: "primary", model: "whisper-1" }),
    state: { recent: async () => history },
    failureOf: (error) => ({
      code: "failed",
      reason: error instanceof Error ? error.message : String(error),
    }),
    logger: createLogger({ level: "silent" }),
    now: Date.now,
  };
  return { deps: { ...base, ...overrides }, history, downloads };
}

describe("the turn media reader", () => {
  it("transcribes a voice note and leaves the text messages alone", async () => {
    const { deps: d } = deps();
    const voice = media("audio");
    const reader = createTurnMediaReader(d);
    const text: InboundMessage = { ...voice, wamid: "wamid.text", type: "text", text: "hello" };
    expect(reader.wants([text])).toBe(false);
    expect(reader.wants([text, voice])).toBe(true);
    const read = await reader.read({
      tenant,
      conversationKey: voice.conversationKey,
      messages: [text, voice],
    });
    expect(Object.keys(read.readings)).toEqual([voice.wamid]);
    expect(read.readings[voice.wamid]?.transcript?.text).toBe("my money never drop");
    expect(read.notice).toBeUndefined();
  });

  it("marks a voice note it could not download and says so once for the turn, however many failed", async () => {
    const { deps: d } = deps({
      download: async () => {
        throw new Error("gone for good");
      },
    });
    const reader = createTurnMediaReader(d);
    const [a, b] = [media("audio"), media("audio")];
    const read = await reader.read({ tenant, conversationKey: a.conversationKey, messages: [a, b] });
    expect(read.readings[a.wamid]?.failure).toEqual({ code: "failed", reason: "gone for good" });
    expect(read.readings[b.wamid]?.failure?.code).toBe("failed");
    expect(read.notice?.text).toContain("voice note");
  });

  it("without speech to text: no download, and the please-type line at most once an hour", async () => {
    const { deps: d, history, downloads } = deps({ transcriber: () => undefined });
    const reader = createTurnMediaReader(d);
    const voice = media("audio");
    const first = await reader.read({ tenant, conversationKey: voice.conversationKey, messages: [voice] });
    expect(first.readings[voice.wamid]?.failure?.code).toBe("no_transcriber");
    expect(first.notice?.text).toMatch(/type/);
    expect(downloads).toEqual([]);
    const said = { from: "bot" as const, type: "media_notice", text: MEDIA_DEFAULTS.noSpeechText };
    history.push({ ...said, at: Date.now() - 10 * 60_000 });
    const again = await reader.read({
      tenant,
      conversationKey: voice.conversationKey,
      messages: [media("audio")],
    });
    expect(again.notice).toBeUndefined();
    history.splice(0, 1, { ...said, at: Date.now() - 61 * 60_000 });
    const later = await reader.read({
      tenant,
      conversationKey: voice.conversationKey,
      messages: [media("audio")],
    });
    expect(later.notice?.text).toMatch(/type/);
  });

  it("describes a picture without vision and never downloads it; a PDF's text is read", async () => {
    const { deps: d, downloads } = deps({ pdfText: async () => "Invoice 42: 2 bags of rice" });
    const reader = createTurnMediaReader(d);
    const picture = media("image", { caption: "see the debit alert" });
    const pdf = media("document", { mime_type: "application/pdf", filename: "invoice.pdf" });
    const read = await reader.read({
      tenant,
      conversationKey: picture.conversationKey,
      messages: [picture, pdf],
    });
    expect(read.readings[picture.wamid]?.description).toBe(
      '[image: image/jpeg, caption "see the debit alert"; you cannot see images: if what it shows matters, ask the customer to type it]',
    );
    expect(read.readings[pdf.wamid]?.extractedText).toBe("Invoice 42: 2 bags of rice");
    expect(downloads).toEqual([(pdf.content as { id: string }).id]);
    expect(read.notice).toBeUndefined();
  });

  it("hands the transcriber the conversation's language and the tenant's cap to the downloader", async () => {
    const seen: { language?: string; maxBytes?: number }[] = [];
    const { deps: d, history } = deps({
      download: async (_t, request) => {
        seen.push({ ...(request.maxBytes === undefined ? {} : { maxBytes: request.maxBytes }) });
        return { bytes: Buffer.from("x"), mimeType: "audio/ogg", size: 1, sha256: "c2hh" };
      },
      transcriber: () => async (_audio, options) => {
        seen.push({ ...(options.language === undefined ? {} : { language: options.language }) });
        return { text: "sannu", provider: "primary", model: "m" };
      },
      languageOf: (texts) => (texts.some((text) => text.includes("ina kwana")) ? "ha" : undefined),
    });
    history.push({ at: 1, from: "customer", type: "text", text: "ina kwana" });
    const capped = { ...tenant, settings: { media: { maxBytes: { audio: 1000 } } } } as TenantConfig;
    const voice = media("audio");
    await createTurnMediaReader(d).read({
      tenant: capped,
      conversationKey: voice.conversationKey,
      messages: [voice],
    });
    expect(seen).toEqual([{ maxBytes: 1000 }, { language: "ha" }]);
  });
});

describe("media settings", () => {
  it("refuses a cap above Meta's limit for the kind, naming the tenant", () => {
    const tenantWith = (media: unknown) => ({ ...tenant, settings: { media } }) as TenantConfig;
    expect(() => resolveMediaSettings(tenantWith({ maxBytes: { image: 6 * 1024 * 1024 } }))).toThrow(
      /tenant "acme": invalid media settings: media.maxBytes/,
    );
    expect(() => resolveMediaSettings(tenantWith({ vison: true }))).toThrow(/vison/);
    expect(resolveMediaSettings(tenantWith({ maxBytes: { image: 1024 } })).maxBytes).toEqual({ image: 1024 });
  });

  it("sends pictures to the agent with vision unless agentImages is false; agentImages alone is refused", () => {
    const tenantWith = (media: unknown) => ({ ...tenant, settings: { media } }) as TenantConfig;
    expect(resolveMediaSettings(tenantWith({ vision: true })).agentImages).toBe(true);
    expect(resolveMediaSettings(tenantWith({ vision: true, agentImages: false })).agentImages).toBe(false);
    expect(resolveMediaSettings(tenantWith({})).agentImages).toBe(false);
    expect(() => resolveMediaSettings(tenantWith({ agentImages: true }))).toThrow(
      /media.agentImages: needs media.vision: true/,
    );
  });
});

describe("pictures for the agent", () => {
  const seeing = { ...tenant, settings: { media: { vision: true } } } as TenantConfig;
  const MB = 1024 * 1024;
  const pictureDeps = (sizes: Record<string, number>, readImage: TurnMediaReaderDeps["readImage"]) =>
    deps({
      download: async (_tenant, request) => {
        const size = sizes[request.mediaId] ?? 1;
        const bytes = Buffer.alloc(size, request.mediaId);
        return { bytes, mimeType: "image/jpeg", size, sha256: "c2hh" };
      },
      ...(readImage === undefined ? {} : { readImage }),
    }).deps;

  it("gives the turn's read pictures as data URLs, in order, until together they would pass 5 MB", async () => {
    const [a, b, c] = [media("image"), media("image"), media("image")];
    const id = (message: InboundMessage) => (message.content as { id: string }).id;
    const reader = createTurnMediaReader(
      pictureDeps({ [id(a)]: 3 * MB, [id(b)]: 3 * MB, [id(c)]: 2 * MB }, async () => ({
        description: "Image, not a receipt: a plate of jollof",
      })),
    );
    const read = await reader.read({
      tenant: seeing,
      conversationKey: a.conversationKey,
      messages: [a, b, c],
    });
    expect(Object.keys(read.images ?? {})).toEqual([a.wamid, c.wamid]);
    const dataUrl = read.images?.[a.wamid]?.dataUrl ?? "";
    expect(dataUrl.startsWith("data:image/jpeg;base64,")).toBe(true);
    expect(Buffer.from(dataUrl.split(",")[1] ?? "", "base64").equals(Buffer.alloc(3 * MB, id(a)))).toBe(true);
    // The readings, which are journaled, hold no bytes.
    expect(JSON.stringify(read.readings)).not.toContain("base64");
  });

  it("gives none the model could not read, and none without vision or with agentImages false", async () => {
    const picture = media("image");
    const failing = createTurnMediaReader(
      pictureDeps({}, async () => {
        throw new Error("the model refused the image");
      }),
    );
    const refused = await failing.read({ tenant: seeing, conversationKey: "k", messages: [picture] });
    expect(refused.images).toBeUndefined();
    const reading = pictureDeps({}, async () => ({ description: "Image, not a receipt: a cat" }));
    for (const media of [{}, { vision: true, agentImages: false }]) {
      const other = { ...tenant, settings: { media } } as TenantConfig;
      const read = await createTurnMediaReader(reading).read({
        tenant: other,
        conversationKey: "k",
        messages: [picture],
      });
      expect(read.images).toBeUndefined();
    }
  });
});
