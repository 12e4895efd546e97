import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DemoError, type SimulateTarget, simulate, VOICE_NOTE_MIME_TYPE } from "../../src/demo/index.js";
import { isValidSignature } from "../../src/ingress/index.js";
import { parseWebhook } from "../../src/whatsapp/index.js";
import { PHONE_NUMBER_ID, type RunningFake, startFake, textTo } from "../support/fake-graph.js";

const SECRET = "simulate-test-secret";
const CUSTOMER = "2348055550000";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A stand-in gateway on a real port: `answer` gets the raw body and the signature header. */
async function gateway(
  answer: (body: Buffer, signature: string | undefined, reply: ServerResponse) => void | Promise<void>,
): Promise<string> {
  const server: Server = createServer((request: IncomingMessage, reply) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void answer(Buffer.concat(chunks), request.headers["x-hub-signature-256"] as string | undefined, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
}

async function fakeGraph(): Promise<RunningFake> {
  const fake = await startFake();
  closers.push(() => fake.fake.close());
  return fake;
}

function target(webhookUrl: string, graphUrl: string): SimulateTarget {
  return { webhookUrl, graphUrl, appSecret: SECRET, phoneNumberId: PHONE_NUMBER_ID };
}

async function failure(promise: Promise<unknown>): Promise<DemoError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DemoError);
  return error as DemoError;
}

describe("simulate (one signed customer message, the bot's reply read off the fake Graph API)", () => {
  it("posts a signed Meta-shaped text webhook and returns only what was sent after it", async () => {
    const graph = await fakeGraph();
    // An earlier message to the same customer is not a reply to this one.
    await graph.send(textTo(CUSTOMER, "old news"));
    const seen: string[] = [];
    const timestamps: number[] = [];
    const url = await gateway(async (body, signature, reply) => {
      expect(isValidSignature(body, signature, SECRET)).toBe(true);
      const parsed = parseWebhook(JSON.parse(body.toString("utf8")), {
        tenantId: "default",
        receivedAt: Date.now(),
      });
      const message = parsed.messages[0];
      seen.push(`${message?.customer.waId}|${message?.phoneNumberId}|${message?.text}|${message?.wamid}`);
      timestamps.push(message?.timestamp ?? 0);
      reply.writeHead(200).end();
      await graph.send({
        messaging_product: "whatsapp",
        to: CUSTOMER,
        type: "interactive",
        interactive: {
          type: "button",
          body: { text: "How far! 👋" },
          action: { buttons: [{ type: "reply", reply: { id: "talk_to_human", title: "Talk to a person" } }] },
        },
      });
    });

    const result = await simulate(target(url, graph.url), {
      text: "hi",
      from: CUSTOMER,
      timeoutMs: 3000,
      settleMs: 200,
    });
    expect(seen).toEqual([`${CUSTOMER}|${PHONE_NUMBER_ID}|hi|${result.wamid}`]);
    expect(Math.abs((timestamps[0] ?? 0) - Date.now() / 1000)).toBeLessThan(10);
    expect(result.wamid).toMatch(/^wamid\.SIM[0-9A-F]{32}$/);
    expect(result.replies).toHaveLength(1);
    expect(result.replies[0]?.lines).toEqual(["How far! 👋", "[Talk to a person]"]);
  });

  it("sends a voice note: the audio registered with the fake Graph API, then a signed audio webhook naming it", async () => {
    const graph = await fakeGraph();
    const bytes = readFileSync(new URL("../fixtures/media/voice-note-en.ogg", import.meta.url));
    const audios: Record<string, unknown>[] = [];
    const downloaded: Buffer[] = [];
    const url = await gateway(async (body, signature, reply) => {
      expect(isValidSignature(body, signature, SECRET)).toBe(true);
      const message = JSON.parse(body.toString("utf8")).entry[0].changes[0].value.messages[0];
      expect(message).toMatchObject({ from: CUSTOMER, type: "audio" });
      audios.push(message.audio);
      // As the gateway's worker downloads it: the media's URL, then the bytes.
      const info = (await (await graph.get(`/v25.0/${message.audio.id}`)).json()) as { url: string };
      downloaded.push(Buffer.from(await (await graph.get(info.url)).arrayBuffer()));
      reply.writeHead(200).end();
      await graph.send(textTo(CUSTOMER, "heard you"));
    });
    const result = await simulate(target(url, graph.url), {
      voice: bytes,
      from: CUSTOMER,
      timeoutMs: 3000,
      settleMs: 50,
    });
    expect(audios).toEqual([
      {
        id: expect.stringMatching(/^sim[0-9a-f]{24}$/),
        mime_type: VOICE_NOTE_MIME_TYPE,
        sha256: createHash("sha256").update(bytes).digest("base64"),
        voice: true,
      },
    ]);
    expect(downloaded).toEqual([bytes]);
    expect(result.replies.map((reply) => reply.lines)).toEqual([["heard you"]]);
  });

  it("uses a fresh wamid each run", async () => {
    const graph = await fakeGraph();
    const url = await gateway(async (_body, _signature, reply) => {
      reply.writeHead(200).end();
      await graph.send(textTo(CUSTOMER, "ok"));
    });
    const options = { text: "hi", from: CUSTOMER, timeoutMs: 3000, settleMs: 50 };
    const first = await simulate(target(url, graph.url), options);
    const second = await simulate(target(url, graph.url), options);
    expect(first.wamid).not.toBe(second.wamid);
    expect(second.replies).toHaveLength(1);
  });

  it("fails clearly when the gateway refuses the webhook", async () => {
    const graph = await fakeGraph();
    const url = await gateway((_body, _signature, reply) => {
      reply
        .writeHead(401, { "content-type": "application/json" })
        .end('{"error":"SS_INGRESS_BAD_SIGNATURE"}');
    });
    const error = await failure(
      simulate(target(url, graph.url), { text: "hi", from: CUSTOMER, timeoutMs: 500 }),
    );
    expect(error.code).toBe("SS_DEMO_REJECTED");
    expect(error.message).toContain("answered 401");
    expect(error.message).toContain("the app secret does not match");
    expect(error.message).not.toContain(SECRET);
  });

  it("fails clearly when no reply comes within the timeout", async () => {
    const graph = await fakeGraph();
    const url = await gateway((_body, _signature, reply) => {
      reply.writeHead(200).end();
    });
    const started = Date.now();
    const error = await failure(
      simulate(target(url, graph.url), { text: "hi", from: CUSTOMER, timeoutMs: 300 }),
    );
    expect(error.code).toBe("SS_DEMO_NO_REPLY");
    expect(error.message).toContain("no reply within 300 ms");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("fails clearly when the Graph URL is not a fake", async () => {
    const url = await gateway((_body, _signature, reply) => {
      reply.writeHead(404).end();
    });
    const graphUrl = url.replace(/\/webhook$/, "");
    const error = await failure(
      simulate(target(url, graphUrl), { text: "hi", from: CUSTOMER, timeoutMs: 300 }),
    );
    expect(error.code).toBe("SS_DEMO_NOT_RUNNING");
    expect(error.message).toContain("is not a fake Graph API");
  });
});
