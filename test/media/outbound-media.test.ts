import { afterEach, describe, expect, it } from "vitest";
import {
  createMediaDownloader,
  MediaTooLargeError,
  mediaMessageBody,
  UnsupportedMediaTypeError,
  uploadOutboundMedia,
} from "../../src/media/index.js";
import { createGraphApiClient, type GraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, trackFakes } from "../support/fake-graph.js";

const CUSTOMER = "+2348012345678";
const fake = trackFakes(afterEach);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function graphFor(f: RunningFake): GraphApiClient {
  const graph = createGraphApiClient(
    {},
    { baseUrl: f.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 2000 },
  );
  cleanups.push(() => graph.close());
  return graph;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("outbound media against the fake Graph API", () => {
  it("uploads a voice note, sends it by id, and the same bytes come back", async () => {
    const f = await fake();
    const graph = graphFor(f);
    const bytes = Buffer.from("OggS\u0000 a short opus voice note", "latin1");
    const { id } = await uploadOutboundMedia(graph, PHONE_NUMBER_ID, {
      kind: "audio",
      bytes,
      mimeType: "audio/ogg; codecs=opus",
      fileName: "reply.ogg",
      voice: true,
    });
    const sent = await graph.sendMessage(PHONE_NUMBER_ID, {
      to: CUSTOMER,
      ...mediaMessageBody({ kind: "audio", id, voice: true }),
    });
    expect(sent.wamid).toMatch(/^wamid\./);
    expect(f.fake.messages()).toMatchObject([{ type: "audio", body: { audio: { id, voice: true } } }]);

    const downloaded = await createMediaDownloader({ graph }).download({ mediaId: id, kind: "audio" });
    expect(downloaded).toMatchObject({ mimeType: "audio/ogg; codecs=opus", size: bytes.length });
    expect(downloaded.bytes.equals(bytes)).toBe(true);

    const document = await uploadOutboundMedia(graph, PHONE_NUMBER_ID, {
      kind: "document",
      bytes: Buffer.from("%PDF-1.4"),
      mimeType: "application/pdf",
      fileName: "statement.pdf",
    });
    await graph.sendMessage(PHONE_NUMBER_ID, {
      to: CUSTOMER,
      ...mediaMessageBody({
        kind: "document",
        id: document.id,
        caption: "Your statement",
        fileName: "statement.pdf",
      }),
    });
    expect(f.fake.requests().map((r) => `${r.kind}:${r.outcome}`)).toEqual([
      "media-upload:accepted",
      "send:accepted",
      "media-url:accepted",
      "media-download:accepted",
      "media-upload:accepted",
      "send:accepted",
    ]);
  });

  it("refuses a wrong type or an oversize file before any HTTP call", async () => {
    const f = await fake();
    const graph = graphFor(f);
    const upload = (file: Parameters<typeof uploadOutboundMedia>[2]) =>
      failure(uploadOutboundMedia(graph, PHONE_NUMBER_ID, file));
    const bytes = Buffer.from("x");
    expect(await upload({ kind: "audio", bytes, mimeType: "audio/ogg", fileName: "a.ogg" })).toBeInstanceOf(
      UnsupportedMediaTypeError,
    );
    expect(
      await upload({ kind: "audio", bytes, mimeType: "audio/mpeg", fileName: "a.mp3", voice: true }),
    ).toMatchObject({ code: "SS_MEDIA_UNSUPPORTED_TYPE", permanent: true });
    expect(await upload({ kind: "image", bytes, mimeType: "image/gif", fileName: "a.gif" })).toBeInstanceOf(
      UnsupportedMediaTypeError,
    );
    const big = await upload({
      kind: "image",
      bytes: Buffer.alloc(5 * 1024 * 1024 + 1),
      mimeType: "image/png",
      fileName: "big.png",
    });
    expect(big).toBeInstanceOf(MediaTooLargeError);
    expect(f.fake.requests()).toEqual([]);
  });
});
