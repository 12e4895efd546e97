import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { GRAPH_TOKEN, PHONE_NUMBER_ID, type RunningFake, textTo, trackFakes } from "../support/fake-graph.js";

const CHINEDU = "+2348012345678";
const fake = trackFakes(afterEach);
const png = Buffer.from("\x89PNG\r\n\x1a\n fake receipt", "latin1");

async function upload(
  f: RunningFake,
  file: { bytes: Buffer; type?: string; partType?: string; name?: string } | undefined,
  options: { token?: string | null; product?: string } = {},
) {
  const form = new FormData();
  form.append("messaging_product", options.product ?? "whatsapp");
  if (file?.type !== undefined) form.append("type", file.type);
  if (file !== undefined) {
    const blob = new Blob([new Uint8Array(file.bytes)], { type: file.partType ?? file.type ?? "" });
    form.append("file", blob, file.name ?? "file.bin");
  }
  const token = options.token === undefined ? GRAPH_TOKEN : options.token;
  const response = await fetch(`${f.url}/v25.0/${PHONE_NUMBER_ID}/media`, {
    method: "POST",
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
    body: form,
  });
  return {
    status: response.status,
    json: (await response.json()) as {
      id?: string;
      error?: { code: number; error_data?: { details: string } };
    },
  };
}

async function lookup(f: RunningFake, id: string) {
  const response = await f.get(`/v25.0/${id}`);
  return { status: response.status, json: (await response.json()) as { url: string; sha256: string } };
}

describe("fake Graph API: media upload", () => {
  it("stores an upload under a numeric id, serves it back and takes sends by that id only", async () => {
    const f = await fake();
    const uploaded = await upload(f, { bytes: png, type: "image/png", name: "receipt.png" });
    expect(uploaded.status).toBe(200);
    const id = uploaded.json.id as string;
    expect(id).toMatch(/^\d{15,}$/);

    const media = await lookup(f, id);
    expect(media.json.sha256).toBe(createHash("sha256").update(png).digest("base64"));
    expect(Buffer.from(await (await f.get(media.json.url)).arrayBuffer())).toEqual(png);

    const byId = await f.send({ ...textTo(CHINEDU), type: "image", image: { id, caption: "Your receipt" } });
    expect(byId.status).toBe(200);
    const unknown = await f.send({ ...textTo(CHINEDU), type: "image", image: { id: "999" } });
    expect(unknown.json.error).toMatchObject({ code: 100 });
    expect(unknown.json.error?.error_data?.details).toMatch(/not a valid .* media attachment ID/);
    const plainHttp = await f.send({
      ...textTo(CHINEDU),
      type: "image",
      image: { link: "http://x.test/a.png" },
    });
    expect(plainHttp.json.error?.error_data?.details).toMatch(/https/);
    const voice = await f.send({ ...textTo(CHINEDU), type: "image", image: { id, voice: true } });
    expect(voice.json.error?.code).toBe(100);
    expect(f.fake.requests().map((r) => [r.kind, r.outcome])).toEqual([
      ["media-upload", "accepted"],
      ["media-url", "accepted"],
      ["media-download", "accepted"],
      ["send", "accepted"],
      ["send", "rejected"],
      ["send", "rejected"],
      ["send", "rejected"],
    ]);
  });

  it("refuses a type outside Meta's table, plain audio/ogg and an oversize file with 131053", async () => {
    const f = await fake();
    const gif = await upload(f, { bytes: png, type: "image/gif" });
    expect(gif).toMatchObject({ status: 400, json: { error: { code: 131053 } } });
    const ogg = await upload(f, { bytes: png, type: "audio/ogg" });
    expect(ogg.json.error?.error_data?.details).toMatch(/OPUS/);
    expect((await upload(f, { bytes: png, type: "audio/ogg; codecs=opus" })).status).toBe(200);
    const big = await upload(f, { bytes: Buffer.alloc(500 * 1024 + 1), type: "image/webp" });
    expect(big.json.error?.error_data?.details).toMatch(/too big/);
    // Without a `type` field, the file part's own type counts.
    expect((await upload(f, { bytes: png, partType: "image/jpeg" })).status).toBe(200);
  });

  it("checks the token and the form before storing anything", async () => {
    const f = await fake();
    expect((await upload(f, { bytes: png, type: "image/png" }, { token: null })).status).toBe(401);
    expect((await upload(f, undefined)).json.error?.code).toBe(100);
    expect((await upload(f, { bytes: png, type: "image/png" }, { product: "x" })).json.error?.code).toBe(100);
    const notMultipart = await fetch(`${f.url}/v25.0/${PHONE_NUMBER_ID}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${GRAPH_TOKEN}`, "content-type": "image/png" },
      body: png,
    });
    expect(notMultipart.status).toBe(400);
  });
});

describe("fake Graph API: media faults", () => {
  it("hands out expired URLs, corrupts bytes and fails downloads and lookups as told, then recovers", async () => {
    const f = await fake();
    f.fake.addMedia("m1", { bytes: png, mimeType: "image/png" });
    const set = await fetch(`${f.url}/_fake/faults`, {
      method: "POST",
      body: JSON.stringify({
        mediaFaults: [{ mediaId: "m1", expireUrls: 1, failDownloads: 1, failLookups: 1 }],
      }),
    });
    expect(set.status).toBe(200);
    expect((await lookup(f, "m1")).status).toBe(500);
    const expired = await lookup(f, "m1");
    expect((await f.get(expired.json.url)).status).toBe(404);
    const fresh = await lookup(f, "m1");
    expect((await f.get(fresh.json.url)).status).toBe(500);
    expect((await f.get(fresh.json.url)).status).toBe(200);
    expect(f.fake.faults().mediaFaults).toEqual([{ mediaId: "m1" }]);

    f.fake.setFaults({ mediaFaults: [{ mediaId: "m1", corrupt: true }] });
    const corrupted = Buffer.from(await (await f.get(fresh.json.url)).arrayBuffer());
    expect(corrupted).toHaveLength(png.length);
    expect(corrupted.equals(png)).toBe(false);
    f.fake.reset();
    expect(Buffer.from(await (await f.get(fresh.json.url)).arrayBuffer())).toEqual(png);
  });
});
