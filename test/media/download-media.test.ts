import { createServer, type IncomingHttpHeaders } from "node:http";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMediaDownloader,
  DisallowedMediaHostError,
  MediaChecksumError,
  type MediaDownloaderOptions,
  MediaNotFoundError,
  MediaTooLargeError,
  MediaUnavailableError,
  sha256Base64,
} from "../../src/media/index.js";
import { createGraphApiClient, type GraphApiClient } from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, trackFakes } from "../support/fake-graph.js";

const fake = trackFakes(afterEach);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const VOICE_ID = "1290468815730245";
const voice = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7) % 256));

function graphFor(f: RunningFake): GraphApiClient {
  const graph = createGraphApiClient(
    {},
    { baseUrl: f.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 2000 },
  );
  cleanups.push(() => graph.close());
  return graph;
}

/** A downloader on the fake whose waits are recorded, not slept. */
function downloaderFor(graph: GraphApiClient, options: MediaDownloaderOptions = {}, now = Date.now) {
  const waits: number[] = [];
  const downloader = createMediaDownloader(
    { graph, sleep: async (ms) => void waits.push(ms), now, random: () => 0.5 },
    options,
  );
  return { downloader, waits };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the download to fail");
}

function expectNoSecrets(error: unknown): void {
  const text = [String(error), (error as Error).stack, inspect(error, { depth: 6 }), JSON.stringify(error)];
  for (const part of text) {
    expect(part).not.toContain(GRAPH_TOKEN);
    expect(part).not.toMatch(/hash=/);
  }
}

const kinds = (f: RunningFake) => f.fake.requests().map((r) => `${r.kind}:${r.status}`);

async function voiceFake(): Promise<RunningFake> {
  const f = await fake();
  f.fake.addMedia(VOICE_ID, { bytes: voice, mimeType: "audio/ogg; codecs=opus" });
  return f;
}

describe("media download", () => {
  it("downloads a voice note and checks it against the webhook's sha256", async () => {
    const f = await voiceFake();
    const { downloader, waits } = downloaderFor(graphFor(f));
    const media = await downloader.download({
      mediaId: VOICE_ID,
      kind: "audio",
      phoneNumberId: PHONE_NUMBER_ID,
      sha256: sha256Base64(voice),
    });
    expect(media.bytes.equals(voice)).toBe(true);
    expect(media).toMatchObject({
      mimeType: "audio/ogg; codecs=opus",
      size: 4000,
      sha256: sha256Base64(voice),
    });
    expect(kinds(f)).toEqual(["media-url:200", "media-download:200"]);
    expect(f.fake.requests()[0]?.path).toContain(`phone_number_id=${PHONE_NUMBER_ID}`);
    expect(waits).toEqual([]);
  });

  it("looks the id up again when its URL has expired, and then succeeds", async () => {
    const f = await voiceFake();
    f.fake.setFaults({ mediaFaults: [{ mediaId: VOICE_ID, expireUrls: 1 }] });
    const { downloader, waits } = downloaderFor(graphFor(f));
    const media = await downloader.download({ mediaId: VOICE_ID, kind: "audio" });
    expect(media.bytes.equals(voice)).toBe(true);
    expect(kinds(f)).toEqual(["media-url:200", "media-download:404", "media-url:200", "media-download:200"]);
    expect(waits).toEqual([]);
  });

  it("refuses a file whose file_size is over the cap before downloading it", async () => {
    const f = await voiceFake();
    const { downloader } = downloaderFor(graphFor(f), { maxBytes: { audio: 3999 } });
    const error = await failure(downloader.download({ mediaId: VOICE_ID, kind: "audio" }));
    expect(error).toBeInstanceOf(MediaTooLargeError);
    expect(error).toMatchObject({
      code: "SS_MEDIA_TOO_LARGE",
      permanent: true,
      limitBytes: 3999,
      sizeBytes: 4000,
    });
    expect(kinds(f)).toEqual(["media-url:200"]);
  });

  it("stops reading at the cap when Meta's file_size understates the file", async () => {
    const f = await voiceFake();
    const real = graphFor(f);
    const lying: GraphApiClient = {
      ...real,
      getMediaUrl: async (id, options) => ({ ...(await real.getMediaUrl(id, options)), fileSize: 10 }),
    };
    const { downloader } = downloaderFor(lying, { maxBytes: { audio: 1000 } });
    const error = await failure(downloader.download({ mediaId: VOICE_ID, kind: "audio" }));
    expect(error).toMatchObject({ code: "SS_MEDIA_TOO_LARGE", permanent: true, limitBytes: 1000 });
    expect((error as MediaTooLargeError).sizeBytes).toBeUndefined();
  });

  it("refuses bytes that do not match the webhook's or Meta's sha256, for good", async () => {
    const f = await voiceFake();
    f.fake.setFaults({ mediaFaults: [{ mediaId: VOICE_ID, corrupt: true }] });
    const { downloader } = downloaderFor(graphFor(f));
    const webhook = await failure(
      downloader.download({ mediaId: VOICE_ID, kind: "audio", sha256: sha256Base64(voice) }),
    );
    expect(webhook).toBeInstanceOf(MediaChecksumError);
    expect(webhook).toMatchObject({
      code: "SS_MEDIA_CHECKSUM_MISMATCH",
      permanent: true,
      against: "webhook",
    });
    const graph = await failure(downloader.download({ mediaId: VOICE_ID, kind: "audio" }));
    expect(graph).toMatchObject({ code: "SS_MEDIA_CHECKSUM_MISMATCH", against: "graph" });
    expect(kinds(f).filter((k) => k.startsWith("media-download"))).toHaveLength(2);
  });

  it("retries 500s with growing waits and succeeds on the third try", async () => {
    const f = await voiceFake();
    f.fake.setFaults({ mediaFaults: [{ mediaId: VOICE_ID, failDownloads: 2 }] });
    const { downloader, waits } = downloaderFor(graphFor(f));
    const media = await downloader.download({ mediaId: VOICE_ID, kind: "audio" });
    expect(media.size).toBe(4000);
    expect(kinds(f)).toEqual([
      "media-url:200",
      "media-download:500",
      "media-download:500",
      "media-download:200",
    ]);
    expect(waits).toEqual([188, 375]);
  });

  it("retries a failing lookup too", async () => {
    const f = await voiceFake();
    f.fake.setFaults({ mediaFaults: [{ mediaId: VOICE_ID, failLookups: 1 }] });
    const { downloader, waits } = downloaderFor(graphFor(f));
    expect((await downloader.download({ mediaId: VOICE_ID, kind: "audio" })).size).toBe(4000);
    expect(kinds(f)).toEqual(["media-url:500", "media-url:200", "media-download:200"]);
    expect(waits).toHaveLength(1);
  });

  it("gives up with a transient error once its attempts are spent", async () => {
    const f = await voiceFake();
    f.fake.setFaults({ mediaFaults: [{ mediaId: VOICE_ID, failDownloads: 10 }] });
    const { downloader, waits } = downloaderFor(graphFor(f), { attempts: 3 });
    const error = await failure(downloader.download({ mediaId: VOICE_ID, kind: "audio" }));
    expect(error).toBeInstanceOf(MediaUnavailableError);
    expect(error).toMatchObject({
      code: "SS_MEDIA_UNAVAILABLE",
      permanent: false,
      reason: "attempts",
      attempts: 3,
    });
    expect(waits).toHaveLength(2);
    expect(kinds(f).filter((k) => k === "media-download:500")).toHaveLength(3);
    expectNoSecrets(error);
  });

  it("never waits past the deadline", async () => {
    const f = await voiceFake();
    f.fake.setFaults({ mediaFaults: [{ mediaId: VOICE_ID, failDownloads: 10 }] });
    const start = Date.now();
    const { downloader, waits } = downloaderFor(graphFor(f), {}, () => start);
    const error = await failure(
      downloader.download({ mediaId: VOICE_ID, kind: "audio", deadline: start + 300 }),
    );
    expect(error).toMatchObject({ code: "SS_MEDIA_UNAVAILABLE", permanent: false, reason: "deadline" });
    expect(waits).toEqual([188]);
    const late = await failure(downloader.download({ mediaId: VOICE_ID, kind: "audio", deadline: start }));
    expect(late).toMatchObject({ reason: "deadline", attempts: 0 });
  });

  it("reports an unknown media id as permanent", async () => {
    const f = await voiceFake();
    const { downloader } = downloaderFor(graphFor(f));
    const error = await failure(downloader.download({ mediaId: "404404", kind: "image" }));
    expect(error).toBeInstanceOf(MediaNotFoundError);
    expect(error).toMatchObject({ code: "SS_MEDIA_NOT_FOUND", permanent: true, mediaId: "404404" });
  });

  it("never sends the token to a host that is not allowed", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const other = createServer((request, response) => {
      seen.push(request.headers);
      response.end("stolen");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => other.close(() => resolve())));
    const { port } = other.address() as { port: number };
    // Meta's lookup names a download URL on `localhost`: not the Graph API's host (127.0.0.1), not https.
    const f = await fake({ publicUrl: `http://localhost:${port}` });
    f.fake.addMedia(VOICE_ID, { bytes: voice, mimeType: "audio/ogg; codecs=opus" });
    const { downloader } = downloaderFor(graphFor(f));
    const error = await failure(downloader.download({ mediaId: VOICE_ID, kind: "audio" }));
    expect(error).toBeInstanceOf(DisallowedMediaHostError);
    expect(error).toMatchObject({
      code: "SS_MEDIA_HOST_NOT_ALLOWED",
      permanent: true,
      host: `localhost:${port}`,
    });
    expect(seen).toEqual([]);
    expectNoSecrets(error);

    // The Graph API's own host is allowed, whatever the allowlist says.
    const home = await voiceFake();
    const narrow = downloaderFor(graphFor(home), { allowedHostSuffixes: ["cdn.test"] }).downloader;
    expect((await narrow.download({ mediaId: VOICE_ID, kind: "audio" })).size).toBe(4000);
  });

  it("refuses caps above Meta's limits and bad attempts at creation", () => {
    const graph = {} as GraphApiClient;
    expect(() => createMediaDownloader({ graph }, { maxBytes: { image: 5 * 1024 * 1024 + 1 } })).toThrow(
      /Meta's limit/,
    );
    expect(() => createMediaDownloader({ graph }, { maxBytes: { image: 0 } })).toThrow(TypeError);
    expect(() => createMediaDownloader({ graph }, { attempts: 0 })).toThrow(TypeError);
    expect(() => createMediaDownloader({ graph }, { allowedHostSuffixes: ["https://x"] })).toThrow(TypeError);
    expect(() => createMediaDownloader({ graph }, { maxBytes: { sticker: 1000 } })).not.toThrow();
  });
});
