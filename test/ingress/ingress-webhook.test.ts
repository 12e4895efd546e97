import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureFor } from "../../src/ingress/signature.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";
import { APP_SECRET, createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { fixtureBytes, fixtureJson, webhookFixtureNames } from "../support/meta-fixtures.js";
import { skipWithoutRedis, turnsOf } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

interface Envelope {
  entry: {
    changes: { value: { messages?: { id: string }[]; statuses?: { id: string; status: string }[] } }[];
  }[];
}

describe.skipIf(skipWithoutRedis)("webhook ingress on real Redis", () => {
  let h: IngressHarness;
  beforeAll(async () => {
    h = await createIngressHarness({ label: "ingress" });
  });
  afterAll(async () => {
    await h?.close();
  });

  const inboxOf = (conversationKey: string) => h.queues.inbox.read(conversationKey);
  /** Conversations with a claimable turn. */
  const turnJobs = async () =>
    (await turnsOf(h.admin, h.prefix)).map((conversationKey) => ({ conversationKey }));

  it("accepts every Meta fixture: messages land in their conversation inboxes, statuses in the events queue", async () => {
    for (const name of webhookFixtureNames()) {
      const response = await h.post(fixtureBytes(name));
      expect(response.statusCode, name).toBe(200);
    }
    const expectedMessages = webhookFixtureNames().flatMap((name) =>
      fixtureJson<Envelope>(name).entry.flatMap((e) =>
        e.changes.flatMap((c) => (c.value.messages ?? []).map((m) => m.id)),
      ),
    );
    const inboxKeys = (await h.admin.zrange(`${h.prefix}:inboxes`, 0, -1)).sort();
    const stored: InboundMessage[] = [];
    for (const key of inboxKeys) stored.push(...(await inboxOf(key)));
    // Reactions and the like are recorded through the events queue and never reach an inbox.
    const recordOnly = (await h.queues.events.entries()).flatMap(({ event }) =>
      event.kind === "message" ? [event.message] : [],
    );
    expect([...stored, ...recordOnly].map((m) => m.wamid).sort()).toEqual(
      [...new Set(expectedMessages)].sort(),
    );
    expect(stored.every((m) => m.unanswerable === undefined)).toBe(true);
    // The reactions, and the batch's second business number, which this tenant does not list.
    expect(recordOnly.map((m) => m.unanswerable).sort()).toEqual(["reaction", "reaction", "unlisted_number"]);
    expect(recordOnly.find((m) => m.unanswerable === "unlisted_number")?.phoneNumberId).toBe(
      "109876543210987",
    );
    for (const message of stored) {
      expect(message.conversationKey).toBe(
        `default:${message.phoneNumberId}:${message.customer.waId ?? message.customer.userId}`,
      );
    }
    const pidgin = stored.find((m) => m.text?.includes("abeg my transfer never enter"));
    expect(pidgin).toMatchObject({ type: "text", customer: { waId: "2348012345678" }, tenantId: "default" });
    const username = stored.find((m) => m.customer.username === "@ngozi.designs");
    expect(username?.conversationKey).toBe("default:106540352242922:NG.3318264059917364520");
    // one turn per conversation with waiting messages
    const turns = await turnJobs();
    expect(turns.map((t) => t.conversationKey).sort()).toEqual(inboxKeys);

    const expectedStatuses = webhookFixtureNames().flatMap((name) =>
      fixtureJson<Envelope>(name).entry.flatMap((e) =>
        e.changes.flatMap((c) => (c.value.statuses ?? []).map((s) => `default:${s.id}:${s.status}`)),
      ),
    );
    const events = (await h.queues.events.entries()).map((entry) => entry.event);
    const statusIds = events.filter((e) => e.kind === "status").map((e) => e.dedupeId);
    expect(statusIds.sort()).toEqual([...new Set(expectedStatuses)].sort());
    expect(events.some((e) => e.kind === "webhook_error")).toBe(true);
  });

  it("drops redeliveries of the same fixtures (messages and statuses) without new work", async () => {
    const before = { turns: (await turnJobs()).length, events: (await h.queues.events.counts()).waiting };
    for (const name of webhookFixtureNames()) expect((await h.post(fixtureBytes(name))).statusCode).toBe(200);
    expect((await h.queues.events.counts()).waiting).toBe(before.events);
    expect((await turnJobs()).length).toBe(before.turns);
    const metrics = await h.metrics.registry.getSingleMetricAsString("ss_ingress_events_total");
    expect(metrics).toMatch(/result="duplicate"/);
  });

  it("records the same body posted 10 times concurrently once, with one scheduled turn", async () => {
    const body = textWebhook([
      [{ wamid: "wamid.concurrent.1", from: "2348030000001", timestamp: 1795170000, text: "Hello" }],
    ]);
    const responses = await Promise.all(Array.from({ length: 10 }, () => h.post(body)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const conversation = "default:106540352242922:2348030000001";
    expect((await inboxOf(conversation)).map((m) => m.wamid)).toEqual(["wamid.concurrent.1"]);
    expect((await turnJobs()).filter((t) => t.conversationKey === conversation)).toHaveLength(1);
  });

  it("splits 3 entries × 2 messages from 6 customers into 6 conversations", async () => {
    const entries = [0, 1, 2].map((e) =>
      [0, 1].map((m) => ({
        wamid: `wamid.batch.${e}.${m}`,
        from: `23481000000${e}${m}`,
        timestamp: 1795170100,
        text: `entry ${e} message ${m} \u20a615k \ud83d\ude4f`,
      })),
    );
    expect((await h.post(textWebhook(entries))).statusCode).toBe(200);
    for (const [e, messages] of entries.entries()) {
      for (const [m, spec] of messages.entries()) {
        const inbox = await inboxOf(`default:106540352242922:${spec.from}`);
        expect(
          inbox.map((x) => x.wamid),
          `entry ${e} message ${m}`,
        ).toEqual([spec.wamid]);
        expect(inbox[0]?.text).toBe(spec.text);
      }
    }
  });

  it("keeps one customer's messages in Meta-timestamp order, ties by arrival, whatever order they arrive in", async () => {
    const from = "2348020000005";
    const specs = [1, 2, 3, 4, 5].map((i) => ({
      wamid: `wamid.order.${i}`,
      from,
      timestamp: 1795170200 + i,
      text: `m${i}`,
    }));
    for (const spec of [...specs].reverse())
      expect((await h.post(textWebhook([[spec]]))).statusCode).toBe(200);
    const tie = [
      { wamid: "wamid.tie.b", from, timestamp: 1795170300, text: "first to arrive" },
      { wamid: "wamid.tie.a", from, timestamp: 1795170300, text: "second to arrive" },
    ];
    for (const spec of tie) await h.post(textWebhook([[spec]]));
    const inbox = await inboxOf(`default:106540352242922:${from}`);
    expect(inbox.map((m) => m.wamid)).toEqual([...specs.map((s) => s.wamid), "wamid.tie.b", "wamid.tie.a"]);
  });

  it("removes handled messages and then drops their redeliveries as duplicates", async () => {
    const spec = { wamid: "wamid.handled.1", from: "2348020000099", timestamp: 1795170400, text: "abeg" };
    const conversation = `default:106540352242922:${spec.from}`;
    await h.post(textWebhook([[spec]]));
    await h.queues.inbox.complete(conversation, [spec.wamid]);
    expect(await inboxOf(conversation)).toEqual([]);
    expect((await h.post(textWebhook([[spec]]))).statusCode).toBe(200);
    expect(await inboxOf(conversation)).toEqual([]);
    expect(await h.admin.get(`${h.prefix}:wamid:default:${spec.wamid}`)).toBe("d");
    expect(await h.admin.ttl(`${h.prefix}:wamid:default:${spec.wamid}`)).toBeGreaterThan(7 * 24 * 3600);
  });

  it("routes /webhook/:tenant with that tenant's secret, and answers an unknown tenant as a bad signature", async () => {
    const body = textWebhook([
      [{ wamid: "wamid.tenant.1", from: "2348020000100", timestamp: 1795170500, text: "hi" }],
    ]);
    expect((await h.post(body, { tenant: "mama-put" })).statusCode).toBe(403);
    expect((await h.post(body, { tenant: "mama-put", secret: "mama-secret" })).statusCode).toBe(200);
    expect((await inboxOf("mama-put:106540352242922:2348020000100")).map((m) => m.tenantId)).toEqual([
      "mama-put",
    ]);
    // The same status and body as a wrong secret for a real tenant: tenant ids cannot be probed.
    const unknown = await h.post(body, { tenant: "nobody" });
    const wrongSecret = await h.post(body, { tenant: "mama-put" });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.body).toBe(wrongSecret.body);
    const verify = (tenant: string) =>
      h.app.inject({
        method: "GET",
        url: `/webhook/${tenant}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1`,
      });
    const [unknownVerify, wrongToken] = await Promise.all([verify("nobody"), verify("mama-put")]);
    expect(unknownVerify.statusCode).toBe(403);
    expect(unknownVerify.body).toBe(wrongToken.body);
  });

  describe("signature", () => {
    const body = textWebhook([
      [{ wamid: "wamid.sig.1", from: "2348020000200", timestamp: 1795170600, text: "\u20a6 \ud83d\ude4f" }],
    ]);
    const good = signatureFor(body, APP_SECRET);
    const changedByte = Buffer.from(body);
    changedByte[changedByte.length - 5] = (changedByte[changedByte.length - 5] as number) ^ 1;
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString())));

    it.each([
      ["a missing header", body, undefined],
      ["the wrong prefix", body, good.replace("sha256=", "sha1=")],
      ["the wrong length", body, good.slice(0, -1)],
      ["the wrong secret", body, signatureFor(body, "not-the-secret")],
      ["a body changed by one byte", changedByte, good],
      ["the same JSON re-serialised", reserialised, good],
    ])("answers 403 for %s and writes nothing", async (_label, bytes, header) => {
      expect(reserialised.equals(body)).toBe(false);
      const before = await h.keys();
      const response = await h.app.inject({
        method: "POST",
        url: "/webhook",
        payload: bytes,
        headers: {
          "content-type": "application/json",
          ...(header === undefined ? {} : { "x-hub-signature-256": header }),
        },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: "SS_INGRESS_BAD_SIGNATURE", message: "invalid signature" });
      expect(response.body).not.toContain(good.slice(7, 20));
      expect(await h.keys()).toEqual(before);
    });

    it("accepts the correct signature on bytes holding \\u20a6 and emoji escapes", async () => {
      expect(body.toString()).toContain("\\u20a6");
      expect(body.toString()).toContain("\\ud83d\\ude4f");
      expect((await h.post(body)).statusCode).toBe(200);
      const [message] = await inboxOf("default:106540352242922:2348020000200");
      expect(message?.text).toBe("\u20a6 \ud83d\ude4f");
    });

    it("records escaped NUL and lone surrogates as U+FFFD, and a raw emoji as it came", async () => {
      const escaped = textWebhook([
        [{ wamid: "wamid.nul.1", from: "2348020000201", timestamp: 1795170600, text: "a\u0000b \udc00" }],
      ]);
      expect(escaped.toString()).toContain("\\u0000");
      expect((await h.post(escaped)).statusCode).toBe(200);
      const [dirty] = await inboxOf("default:106540352242922:2348020000201");
      expect(dirty?.text).toBe("a\uFFFDb \uFFFD");
      // Not a \u escape in sight: the text arrives as UTF-8 bytes and is recorded unchanged.
      const raw = Buffer.from(
        textWebhook([[{ wamid: "wamid.raw.1", from: "2348020000202", timestamp: 1795170600, text: "x" }]])
          .toString()
          .replace('"x"', '"Ẹ jọ̀ọ́ 🙏"'),
      );
      expect(raw.toString()).not.toContain("\\u");
      expect((await h.post(raw)).statusCode).toBe(200);
      const [plain] = await inboxOf("default:106540352242922:2348020000202");
      expect(plain?.text).toBe("Ẹ jọ̀ọ́ 🙏");
    });
  });

  describe("bad bodies", () => {
    const twoMiB = Buffer.alloc(2 * 1024 * 1024, 0x20);
    it.each([
      [
        "malformed JSON",
        Buffer.from('{"object": "whatsapp_business_account", "entry": ['),
        400,
        "SS_INGRESS_MALFORMED_JSON",
      ],
      ["an empty body", Buffer.alloc(0), 400, "SS_INGRESS_MALFORMED_JSON"],
      ["the wrong object", Buffer.from('{"object":"page","entry":[]}'), 400, "SS_INGRESS_MALFORMED_JSON"],
      ["a 2 MiB body", twoMiB, 413, "SS_INGRESS_BODY_TOO_LARGE"],
    ])(
      "answers %s with the documented status, writes nothing and keeps serving",
      async (_label, bytes, status, code) => {
        const before = await h.keys();
        const response = await h.post(bytes);
        expect(response.statusCode).toBe(status);
        expect(response.json().error).toBe(code);
        expect(await h.keys()).toEqual(before);
        expect((await h.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      },
    );
  });

  describe("verification GET", () => {
    const verify = (query: string, tenant = "") =>
      h.app.inject({ method: "GET", url: `/webhook${tenant}?${query}` });

    it("echoes the challenge as text/plain for the right token", async () => {
      const response = await verify(
        "hub.mode=subscribe&hub.verify_token=test-verify-token&hub.challenge=1158201444",
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/plain/);
      expect(response.body).toBe("1158201444");
      const tenant = await verify(
        "hub.mode=subscribe&hub.verify_token=mama-verify&hub.challenge=42",
        "/mama-put",
      );
      expect(tenant.body).toBe("42");
    });

    it.each([
      ["a wrong token", "hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1"],
      ["another tenant's token", "hub.mode=subscribe&hub.verify_token=mama-verify&hub.challenge=1"],
      ["a wrong mode", "hub.mode=unsubscribe&hub.verify_token=test-verify-token&hub.challenge=1"],
      ["a missing challenge", "hub.mode=subscribe&hub.verify_token=test-verify-token"],
      ["no parameters", ""],
    ])("answers 403 for %s", async (_label, query) => {
      const response = await verify(query);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain("test-verify-token");
    });
  });

  it("reports health and a bare readiness, and counts into the metrics the admin listener serves", async () => {
    expect((await h.app.inject({ method: "GET", url: "/readyz" })).json()).toEqual({ status: "ready" });
    expect((await h.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
    const metrics = await h.metrics.registry.metrics();
    for (const name of [
      "ss_ingress_request_duration_seconds_bucket",
      'ss_ingress_requests_total{route="webhook",outcome="accepted"}',
      'ss_ingress_requests_total{route="webhook",outcome="bad_signature"}',
      'ss_ingress_requests_total{route="webhook",outcome="malformed"}',
      'ss_ingress_messages_total{tenant="default",result="duplicate"}',
      "ss_ingress_webhook_errors_total",
      "ss_queue_inbox_messages",
      'ss_queue_jobs{queue="turns",state="waiting"}',
    ]) {
      expect(metrics, name).toContain(name);
    }
  });

  it("answers 400 to bodies nested far deeper than any webhook, without failing webhooks sent alongside", async () => {
    const deep = `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`;
    const deepChange = `{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"account_alerts","value":${deep}}]}]}`;
    const deepText = textWebhook([
      [{ wamid: "wamid.deep.1", from: "2348020000300", timestamp: 1795170700, text: "x" }],
    ])
      .toString()
      .replace('"text":{"body":"x"}', `"text":{"body":${deep}}`);
    const good = textWebhook([
      [{ wamid: "wamid.deep.ok", from: "2348020000301", timestamp: 1795170700, text: "ok" }],
    ]);
    const [changeResponse, textResponse, goodResponse] = await Promise.all([
      h.post(deepChange),
      h.post(deepText),
      h.post(good),
    ]);
    expect(changeResponse.statusCode).toBe(400);
    expect(textResponse.statusCode).toBe(400);
    expect(goodResponse.statusCode).toBe(200);
  });

  it("keeps phone numbers, wamids (which encode the number) and message text out of the logs", async () => {
    const spec = {
      wamid: "wamid.HBgNMjM0ODAyMDAwMDQwMBUCABIYFDNBQzE5RDY1",
      from: "2348020000400",
      timestamp: 1795170800,
      text: "my PIN na 4321",
    };
    const withDropped = JSON.parse(textWebhook([[spec]]).toString());
    withDropped.entry[0].changes[0].value.messages.push({
      id: "wamid.HBgNMjM0ODAyMDAwMDQwMRUCABIY",
      timestamp: "1795170800",
      type: "text",
      text: { body: "no sender" },
    });
    h.logLines.length = 0;
    expect((await h.post(Buffer.from(JSON.stringify(withDropped)))).statusCode).toBe(200);
    const logs = h.logLines.join("");
    expect(logs).toMatch(/webhook item dropped/);
    expect(logs).toMatch(/message recorded/);
    for (const secret of ["2348020000400", "wamid.HBgN", "my PIN na 4321", "no sender", APP_SECRET]) {
      expect(logs).not.toContain(secret);
    }
  });

  it("never answers 500 or crashes on random bytes or random JSON with a valid signature", async () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value));
    const envelopeish = fc
      .record({
        object: fc.constantFrom("whatsapp_business_account", "page"),
        entry: fc.array(
          fc.record({
            id: fc.oneof(fc.string(), fc.integer()),
            changes: fc.array(
              fc.record({
                field: fc.constantFrom("messages", "statuses", "x"),
                value: fc.jsonValue({ maxDepth: 3 }),
              }),
              { maxLength: 3 },
            ),
          }),
          { maxLength: 3 },
        ),
      })
      .map((value) => JSON.stringify(value));
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b).toString("latin1")),
      anyJson,
      envelopeish,
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (text) => {
        const response = await h.post(Buffer.from(text, "latin1"));
        expect([200, 400]).toContain(response.statusCode);
      }),
      { numRuns: 300 },
    );
    expect((await h.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});
