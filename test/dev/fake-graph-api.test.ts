import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { PHONE_NUMBER_ID, textTo, trackFakes } from "../support/fake-graph.js";
import { fixtureJson } from "../support/meta-fixtures.js";

const CHINEDU = "+2348012345678";
const fake = trackFakes(afterEach);

/** Keys of a JSON value, recursively, so shapes compare without their invented values. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  }
  return typeof value;
}

describe("fake Graph API: sends", () => {
  it("answers a send in Meta's success shape with a fresh wamid each time", async () => {
    const f = await fake();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => f.send(fixtureJson("send-request-text"))),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(shape(answer.json)).toEqual(shape(fixtureJson("send-success")));
      expect(answer.json.contacts).toEqual([{ input: CHINEDU, wa_id: "2348012345678" }]);
      expect(answer.json.messages?.[0]?.id).toMatch(/^wamid\.[A-Za-z0-9+/=]+$/);
    }
    expect(new Set(answers.map((a) => a.json.messages?.[0]?.id)).size).toBe(50);

    const bsuid = await f.send(fixtureJson("send-request-text-bsuid"));
    expect(shape(bsuid.json)).toEqual(shape(fixtureJson("send-success-bsuid-recipient")));
    expect(bsuid.json.contacts?.[0]?.user_id).toBe("NG.3318264059917364520");
    const template = await f.send(fixtureJson("send-request-template"));
    expect(template.json.messages?.[0]?.message_status).toBe("accepted");
  });

  it("uses the injected id generator", async () => {
    let n = 0;
    const f = await fake({}, { ids: { wamid: (to) => `wamid.test-${to}-${++n}`, traceId: () => "trace" } });
    const { json } = await f.send(textTo(CHINEDU));
    expect(json.messages?.[0]?.id).toBe(`wamid.test-${CHINEDU}-1`);
  });

  it.each([
    ["no Authorization header", null],
    ["a wrong token", "not-the-token"],
  ])("answers %s with 401 and OAuthException 190", async (_name, token) => {
    const f = await fake();
    const { status, json } = await f.send(textTo(CHINEDU), { token });
    expect(status).toBe(401);
    expect(json.error).toMatchObject({ type: "OAuthException", code: 190 });
    expect(json.error?.error_data).toBeUndefined();
    expect(f.fake.messages()).toHaveLength(0);
  });

  it.each([
    ["messaging_product", { ...textTo(CHINEDU), messaging_product: "sms" }],
    ["no recipient", { messaging_product: "whatsapp", text: { body: "x" } }],
    ["text.body", { ...textTo(CHINEDU), text: {} }],
    ["text of 4097 characters", textTo(CHINEDU, "a".repeat(4097))],
    [
      "4 buttons",
      {
        ...fixtureJson<Record<string, unknown>>("send-request-interactive-buttons"),
        interactive: buttonsOf(["a", "b", "c", "d"]),
      },
    ],
    [
      "a 21-character button title",
      { ...textTo(CHINEDU), type: "interactive", interactive: buttonsOf(["x".repeat(21)]) },
    ],
    [
      "repeated button titles",
      { ...textTo(CHINEDU), type: "interactive", interactive: buttonsOf(["Yes", "Yes"]) },
    ],
    ["11 list rows", { ...textTo(CHINEDU), type: "interactive", interactive: listOf(11, "Row") }],
    [
      "a 25-character row title",
      { ...textTo(CHINEDU), type: "interactive", interactive: listOf(1, "r".repeat(25)) },
    ],
    ["template without language", { ...textTo(CHINEDU), type: "template", template: { name: "t" } }],
    ["reaction without emoji", { ...textTo(CHINEDU), type: "reaction", reaction: { message_id: "wamid.x" } }],
    ["image without id or link", { ...textTo(CHINEDU), type: "image", image: {} }],
    ["a body that is not JSON", "{not json"],
  ])("answers an invalid send (%s) with 400 and error 100 in Meta's shape", async (_name, body) => {
    const f = await fake();
    const { status, json } = await f.send(body);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      message: expect.stringMatching(/^\(#100\) /),
      type: "OAuthException",
      code: 100,
      error_data: { messaging_product: "whatsapp", details: expect.any(String) },
      fbtrace_id: expect.any(String),
    });
    expect(f.fake.requests()).toMatchObject([{ outcome: "rejected", status: 400, errorCode: 100 }]);
  });

  it("answers mark-as-read and typing indicator with {success: true}, outside the limits", async () => {
    const f = await fake({ limits: { throughput: { mps: 1 }, pair: { burst: 1 } } });
    for (let i = 0; i < 3; i++) {
      const { status, json } = await f.send(fixtureJson("send-request-mark-read-typing"));
      expect(status).toBe(200);
      expect(json).toEqual(fixtureJson("send-success-mark-read"));
    }
    const read = { messaging_product: "whatsapp", status: "read", message_id: "wamid.x" };
    expect((await f.send(read)).json).toEqual({ success: true });
    expect((await f.send({ ...read, message_id: undefined })).json.error?.code).toBe(100);
    // The limits (1 message/s) still let the first real message through.
    expect((await f.send(textTo(CHINEDU))).status).toBe(200);
    expect(f.fake.messages()).toHaveLength(1);
  });

  it("refuses a phone number id it does not know, when told which it knows", async () => {
    const f = await fake({ phoneNumberIds: [PHONE_NUMBER_ID] });
    const { status, json } = await f.send(textTo(CHINEDU), { phoneNumberId: "999" });
    expect(status).toBe(404);
    expect(json.error).toMatchObject({ code: 100, type: "GraphMethodException", error_subcode: 33 });
  });
});

describe("fake Graph API: media", () => {
  const bytes = Buffer.from("OggS fake voice note bytes");

  it("resolves a media id to a URL on itself and serves the bytes, both with the token only", async () => {
    let now = Date.UTC(2026, 10, 20);
    const f = await fake({}, { now: () => now });
    f.fake.addMedia("1290468815730245", { bytes, mimeType: "audio/ogg; codecs=opus" });

    const lookup = await f.get("/v25.0/1290468815730245?phone_number_id=106540352242922");
    expect(lookup.status).toBe(200);
    const media = (await lookup.json()) as Record<string, string>;
    expect(shape(media)).toEqual(shape(fixtureJson("media-get-url-response")));
    expect(media).toMatchObject({
      messaging_product: "whatsapp",
      mime_type: "audio/ogg; codecs=opus",
      file_size: String(bytes.length),
      sha256: createHash("sha256").update(bytes).digest("base64"),
      id: "1290468815730245",
    });
    expect(media.url?.startsWith(`${f.url}/media-download/1290468815730245?`)).toBe(true);

    const download = await f.get(media.url as string);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("audio/ogg; codecs=opus");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);

    expect((await f.get(media.url as string, null)).status).toBe(401);
    expect((await f.get("/v25.0/1290468815730245", "wrong")).status).toBe(401);
    now += 5 * 60_000 + 1000;
    expect((await f.get(media.url as string)).status).toBe(404);
  });

  it("answers an unknown media id and a forged download URL with 404 in Meta's shape", async () => {
    const f = await fake();
    f.fake.addMedia("known", { bytes, mimeType: "image/png" });
    const unknown = await f.get("/v25.0/404404");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(100);
    expect((await f.get("/media-download/404404?ext=99999999999&hash=x")).status).toBe(404);
    expect((await f.get("/media-download/known?ext=99999999999&hash=forged")).status).toBe(404);
  });

  it("takes media over HTTP too (PUT /_fake/media/:id)", async () => {
    const f = await fake();
    const put = await fetch(`${f.url}/_fake/media/m-1`, {
      method: "PUT",
      headers: { "content-type": "image/png" },
      body: bytes,
    });
    expect(put.status).toBe(201);
    const media = (await (await f.get("/v25.0/m-1")).json()) as { url: string; mime_type: string };
    expect(media.mime_type).toBe("image/png");
    expect(Buffer.from(await (await f.get(media.url)).arrayBuffer())).toEqual(bytes);
  });
});

describe("fake Graph API: records", () => {
  it("records accepted messages and every attempt, queryable over HTTP and resettable", async () => {
    const f = await fake({ faults: { forcedErrors: [{ code: 131047, recipients: ["+2348098765432"] }] } });
    const sent = await f.send(textTo(CHINEDU, "first"));
    await f.send(fixtureJson("send-request-text-bsuid"));
    await f.send(textTo("+234 809 876 5432"), {});
    await f.send(textTo(CHINEDU, "other number"), { phoneNumberId: "109876543210987" });
    await f.send(textTo(CHINEDU), { token: "wrong" });

    const list = async (query = "") =>
      (await (await fetch(`${f.url}/_fake/messages${query}`)).json()) as Record<string, unknown>[];
    const all = await list();
    expect(all).toHaveLength(3);
    expect(all[0]).toMatchObject({
      id: sent.json.messages?.[0]?.id,
      phoneNumberId: PHONE_NUMBER_ID,
      to: CHINEDU,
      type: "text",
      body: { text: { body: "first" } },
      receivedAt: expect.any(Number),
    });
    expect(await list("?to=2348012345678")).toHaveLength(2);
    expect(await list(`?to=${encodeURIComponent(CHINEDU)}&phoneNumberId=109876543210987`)).toHaveLength(1);
    expect(await list("?to=NG.3318264059917364520")).toMatchObject([{ recipient: "NG.3318264059917364520" }]);

    const requests = (await (await fetch(`${f.url}/_fake/requests`)).json()) as Record<string, unknown>[];
    expect(requests.map((r) => [r.outcome, r.errorCode])).toEqual([
      ["accepted", undefined],
      ["accepted", undefined],
      ["rejected", 131047],
      ["accepted", undefined],
      ["rejected", 190],
    ]);

    expect((await fetch(`${f.url}/_fake/messages`, { method: "DELETE" })).status).toBe(200);
    expect(await list()).toEqual([]);
    expect(f.fake.requests()).toEqual([]);
  });
});

function buttonsOf(titles: string[]) {
  return {
    type: "button",
    body: { text: "Wetin you wan do?" },
    action: { buttons: titles.map((title, i) => ({ type: "reply", reply: { id: `b${i}`, title } })) },
  };
}

function listOf(rows: number, title: string) {
  return {
    type: "list",
    body: { text: "Choose" },
    action: {
      button: "Options",
      sections: [{ title: "All", rows: Array.from({ length: rows }, (_, i) => ({ id: `r${i}`, title })) }],
    },
  };
}
