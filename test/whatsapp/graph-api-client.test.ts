import { createServer } from "node:net";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { classifySendError } from "../../src/outbound/index.js";
import {
  createGraphApiClient,
  createHttpTransport,
  type GraphApiClient,
  GraphApiError,
  type HttpRequest,
  MediaHostNotAllowedError,
  ResponseTooLargeError,
  TransportError,
} from "../../src/whatsapp/index.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, startFake } from "../support/fake-graph.js";
import { fixtureJson } from "../support/meta-fixtures.js";

const CUSTOMER = "+2348012345678";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function fake(...args: Parameters<typeof startFake>): Promise<RunningFake> {
  const started = await startFake(...args);
  cleanups.push(() => started.fake.close());
  return started;
}

function client(baseUrl: string, options: { token?: string; timeoutMs?: number } = {}): GraphApiClient {
  const created = createGraphApiClient(
    {},
    { baseUrl, version: "v25.0", token: options.token ?? GRAPH_TOKEN, timeoutMs: options.timeoutMs ?? 2000 },
  );
  cleanups.push(() => created.close());
  return created;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** Everything about an error a log line could print: none of it may hold `secret`. */
function expectNoSecret(error: unknown, secret: string): void {
  const text = [String(error), (error as Error).stack, inspect(error, { depth: 5 }), JSON.stringify(error)];
  for (const part of text) expect(part).not.toContain(secret);
}

const text = (to = CUSTOMER, body = "How far?") => ({ to, type: "text", text: { body } });

describe("Graph API client against the fake Graph API: sends", () => {
  it("parses Meta's success shape and sends what Meta expects", async () => {
    const f = await fake();
    const graph = client(f.url);
    const sent = await graph.sendMessage(PHONE_NUMBER_ID, text());
    expect(sent.wamid).toMatch(/^wamid\./);
    expect(sent.contact).toEqual({ input: CUSTOMER, waId: "2348012345678", userId: undefined });
    expect(sent.messageStatus).toBeUndefined();
    const [recorded] = f.fake.messages();
    expect(recorded).toMatchObject({ id: sent.wamid, phoneNumberId: PHONE_NUMBER_ID, to: CUSTOMER });
    expect(recorded?.body).toEqual({ messaging_product: "whatsapp", ...text() });

    const bsuid = fixtureJson<Record<string, unknown> & { type: string }>("send-request-text-bsuid");
    const toUser = await graph.sendMessage(PHONE_NUMBER_ID, bsuid);
    expect(toUser.contact).toMatchObject({ userId: bsuid.recipient, waId: undefined });
    const template = fixtureJson<Record<string, unknown> & { type: string }>("send-request-template");
    expect((await graph.sendMessage(PHONE_NUMBER_ID, template)).messageStatus).toBe("accepted");
  });

  it("turns a bad token into GraphApiError 190 whose message never holds the token", async () => {
    const f = await fake();
    const wrong = "EAAG-not-the-right-token-0123456789";
    const error = await failure(client(f.url, { token: wrong }).sendMessage(PHONE_NUMBER_ID, text()));
    expect(error).toBeInstanceOf(GraphApiError);
    expect(error).toMatchObject({ code: "SS_WHATSAPP_GRAPH_ERROR", graphCode: 190, status: 401 });
    expectNoSecret(error, wrong);
    expect(classifySendError(error, { attempt: 1, unknownOutcomeRetried: false })).toMatchObject({
      action: "give_up",
      reason: "access_token_invalid",
      pauseTenant: true,
    });

    f.fake.setFaults({ forcedErrors: [{ code: 190, times: 1 }] });
    const expired = await failure(client(f.url).sendMessage(PHONE_NUMBER_ID, text()));
    expect(expired).toMatchObject({ graphCode: 190, graphSubcode: 463 });
    expectNoSecret(expired, GRAPH_TOKEN);
  });

  it("reports Meta's validation error 100 with its details", async () => {
    const f = await fake();
    const error = await failure(client(f.url).sendMessage(PHONE_NUMBER_ID, text(CUSTOMER, "x".repeat(4097))));
    expect(error).toMatchObject({ graphCode: 100, status: 400, type: "OAuthException" });
    expect((error as GraphApiError).details).toMatch(/4096/);
    expect((error as GraphApiError).fbtraceId).toEqual(expect.any(String));
  });

  it("reports a forced 131047 as a re-engagement give-up", async () => {
    const f = await fake();
    f.fake.setFaults({ forcedErrors: [{ code: 131047, recipients: [CUSTOMER] }] });
    const error = await failure(client(f.url).sendMessage(PHONE_NUMBER_ID, text()));
    expect(error).toMatchObject({ graphCode: 131047, status: 400 });
    expect((error as GraphApiError).details).toBe(
      fixtureJson<{ error: { error_data: { details: string } } }>("send-error-131047").error.error_data
        .details,
    );
    expect(classifySendError(error, { attempt: 1, unknownOutcomeRetried: false })).toEqual({
      action: "give_up",
      reason: "reengagement_required",
      code: 131047,
      reengage: true,
    });
  });

  it("reports a 500 as GraphApiError 131000 and an outage as 131016, both retried", async () => {
    const f = await fake({ faults: { errorRate: 1 } });
    const graph = client(f.url);
    const error = await failure(graph.sendMessage(PHONE_NUMBER_ID, text()));
    expect(error).toMatchObject({ graphCode: 131000, status: 500 });
    expect(classifySendError(error, { attempt: 1, unknownOutcomeRetried: false }).action).toBe("retry");

    f.fake.setFaults({ reset: true, outageForMs: 60_000 });
    const outage = await failure(graph.sendMessage(PHONE_NUMBER_ID, text()));
    expect(outage).toMatchObject({ graphCode: 131016, status: 503, isTransient: true });
    expect(classifySendError(outage, { attempt: 1, unknownOutcomeRetried: false }).action).toBe("retry");
    f.fake.setFaults({ reset: true });
    expect((await graph.sendMessage(PHONE_NUMBER_ID, text())).wamid).toMatch(/^wamid\./);
  });
});

describe("Graph API client: transport failures", () => {
  it("times out an answer slower than timeoutMs as an unknown outcome (request written)", async () => {
    const f = await fake({ faults: { latencyMs: 1000 } });
    const started = performance.now();
    const error = await failure(client(f.url, { timeoutMs: 150 }).sendMessage(PHONE_NUMBER_ID, text()));
    expect(performance.now() - started).toBeLessThan(900);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: "SS_WHATSAPP_TRANSPORT", failure: "timeout", requestWritten: true });
    expectNoSecret(error, GRAPH_TOKEN);
    expect(classifySendError(error, { attempt: 1, unknownOutcomeRetried: false }).action).toBe(
      "retry_once_unknown",
    );
  });

  it("reports a request the fake holds and then drops as written", async () => {
    const f = await fake({ faults: { hangRate: 1 } });
    const pending = failure(client(f.url).sendMessage(PHONE_NUMBER_ID, text()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await f.fake.close();
    expect(await pending).toMatchObject({ failure: "network", requestWritten: true });
  });

  it("reports a refused connection as not written", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const error = await failure(client(`http://127.0.0.1:${port}`).sendMessage(PHONE_NUMBER_ID, text()));
    expect(error).toMatchObject({ failure: "network", requestWritten: false, networkCode: "ECONNREFUSED" });
    expectNoSecret(error, GRAPH_TOKEN);
    expect(classifySendError(error, { attempt: 1, unknownOutcomeRetried: true }).action).toBe("retry");
  });
});

describe("Graph API client: mark as read, typing, media", () => {
  it("marks a message read, with and without the typing indicator", async () => {
    const f = await fake();
    const seen: HttpRequest[] = [];
    const wire = createHttpTransport();
    cleanups.push(() => wire.close());
    const recording = {
      request(request: HttpRequest) {
        seen.push(request);
        return wire.request(request);
      },
      close: wire.close,
    };
    const graph = createGraphApiClient(
      { transport: recording },
      { baseUrl: f.url, version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 2000 },
    );
    const wamid = fixtureJson<{ message_id: string }>("send-request-mark-read-typing").message_id;
    await graph.markRead(PHONE_NUMBER_ID, wamid);
    await graph.markRead(PHONE_NUMBER_ID, wamid, { typing: true });
    expect(f.fake.requests().map((r) => [r.kind, r.outcome])).toEqual([
      ["read", "accepted"],
      ["read", "accepted"],
    ]);
    expect(seen.map((r) => JSON.parse(String(r.body ?? "{}")))).toEqual([
      { messaging_product: "whatsapp", status: "read", message_id: wamid },
      fixtureJson("send-request-mark-read-typing"),
    ]);
    expect(f.fake.messages()).toEqual([]);
  });

  it("resolves a media id and downloads it with the token, within maxBytes", async () => {
    const f = await fake();
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256));
    f.fake.addMedia("1290468815730245", { bytes, mimeType: "audio/ogg; codecs=opus" });
    const graph = client(f.url);
    const media = await graph.getMediaUrl("1290468815730245", { phoneNumberId: PHONE_NUMBER_ID });
    expect(media).toMatchObject({ mimeType: "audio/ogg; codecs=opus", fileSize: 5000 });
    expect(media.url.startsWith(f.url)).toBe(true);
    expect(Buffer.from(media.sha256, "base64")).toHaveLength(32);
    expect((await graph.downloadMedia(media.url, { maxBytes: 5000 })).equals(bytes)).toBe(true);

    const tooLarge = await failure(graph.downloadMedia(media.url, { maxBytes: 4999 }));
    expect(tooLarge).toBeInstanceOf(ResponseTooLargeError);
    expect(tooLarge).toMatchObject({ code: "SS_WHATSAPP_RESPONSE_TOO_LARGE", limitBytes: 4999 });

    const stranger = await failure(
      client(f.url, { token: "EAAG-other-0123456789" }).downloadMedia(media.url, { maxBytes: 10_000 }),
    );
    expect(stranger).toMatchObject({ graphCode: 190, status: 401 });
    expect(f.fake.requests().map((r) => [r.kind, r.outcome])).toEqual([
      ["media-url", "accepted"],
      ["media-download", "accepted"],
      ["media-download", "accepted"],
      ["media-download", "rejected"],
    ]);
  });

  it("sends the token only to the Graph API host or an allowed media host over https", async () => {
    const seen: HttpRequest[] = [];
    const recording = {
      async request(request: HttpRequest) {
        seen.push(request);
        return { status: 200, headers: {}, body: Buffer.from("ok") };
      },
      close: async () => undefined,
    };
    const graph = createGraphApiClient(
      { transport: recording },
      { baseUrl: "http://127.0.0.1:9", version: "v25.0", token: GRAPH_TOKEN, timeoutMs: 1000 },
    );
    const allowed = [
      "https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1&ext=2&hash=ATs",
      "https://fbsbx.com/x",
      "http://127.0.0.1:9/media-download/1",
      "http://127.0.0.1:10/media-download/1",
    ];
    for (const url of allowed) await graph.downloadMedia(url, { maxBytes: 10 });
    expect(seen.map((r) => r.headers.authorization)).toEqual(allowed.map(() => `Bearer ${GRAPH_TOKEN}`));

    const refused = [
      "https://evilfbsbx.com/x?hash=secret-signature",
      "https://fbsbx.com.evil.net/x",
      "http://lookaside.fbsbx.com/x",
      "https://localhost/x",
      "http://localhost:9/x",
      "https://user:pw@lookaside.fbsbx.com/x",
    ];
    for (const url of refused) {
      const error = await failure(graph.downloadMedia(url, { maxBytes: 10 }));
      expect(error).toBeInstanceOf(MediaHostNotAllowedError);
      expect(error).toMatchObject({ code: "SS_WHATSAPP_MEDIA_HOST_NOT_ALLOWED" });
      expectNoSecret(error, "secret-signature");
      expectNoSecret(error, GRAPH_TOKEN);
    }
    const narrowed = await failure(
      graph.downloadMedia("https://lookaside.fbsbx.com/x", {
        maxBytes: 10,
        allowedHostSuffixes: ["cdn.test"],
      }),
    );
    expect(narrowed).toBeInstanceOf(MediaHostNotAllowedError);
    await graph.downloadMedia("https://a.cdn.test/x", { maxBytes: 10, allowedHostSuffixes: ["cdn.test"] });
    expect(seen).toHaveLength(allowed.length + 1);
    expect(() =>
      createGraphApiClient(
        { transport: recording },
        {
          baseUrl: "http://127.0.0.1:9",
          version: "v25.0",
          token: "t",
          timeoutMs: 1,
          mediaHostSuffixes: ["*.x"],
        },
      ),
    ).toThrow(TypeError);
  });

  it("uploads a file as multipart and gets back an id the fake serves; a wrong type is Meta's 131053", async () => {
    const f = await fake();
    const graph = client(f.url);
    const bytes = Buffer.from("%PDF-1.4 receipt", "latin1");
    const { id } = await graph.uploadMedia(PHONE_NUMBER_ID, {
      bytes,
      mimeType: "application/pdf",
      fileName: "receipt.pdf",
    });
    const media = await graph.getMediaUrl(id);
    expect(media).toMatchObject({ mimeType: "application/pdf", fileSize: bytes.length });
    expect((await graph.downloadMedia(media.url, { maxBytes: 1000 })).equals(bytes)).toBe(true);
    const refused = await failure(
      graph.uploadMedia(PHONE_NUMBER_ID, { bytes, mimeType: "image/gif", fileName: "a.gif" }),
    );
    expect(refused).toMatchObject({ graphCode: 131053, status: 400, operation: "upload media" });
    expectNoSecret(refused, GRAPH_TOKEN);
  });

  it("reports unknown media as Meta's 404 error 100", async () => {
    const f = await fake();
    const error = await failure(client(f.url).getMediaUrl("404404"));
    expect(error).toMatchObject({ graphCode: 100, graphSubcode: 33, status: 404 });
  });
});
