import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { startAll, startEmbedded } from "../../src/app/index.js";
import type { Responder, TurnInput } from "../../src/conversation/index.js";
import { type InboundSpecOf, mixedWebhook } from "../../src/dev/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger, type Logger, type Tracing } from "../../src/observability/index.js";
import type { MessageStore } from "../../src/store/index.js";
import { openPostgresMessageStore } from "../../src/store/postgres/index.js";
import { embeddedEnvConfig } from "./embedded-config.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "./fake-graph.js";
import { readVoiceNote, type VOICE_NOTES } from "./fake-stt.js";
import { APP_SECRET } from "./ingress-harness.js";
import { openLiveSqliteStore } from "./live-sqlite-store.js";
import { createTestPool, TEST_DATABASE_URL, uniqueSchema } from "./postgres.js";
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from "./redis.js";

export const CUSTOMER = "2348012345678";

/** Answers each turn with what it read, in order, and keeps the turns it was given. */
export function echoResponder(): Responder & { readonly turns: TurnInput[] } {
  const turns: TurnInput[] = [];
  return {
    turns,
    async respond(turn) {
      turns.push(turn);
      return [{ text: `heard: ${turn.messages.map((m) => m.text ?? "(nothing)").join(" | ")}` }];
    },
    async respondToStale(turn) {
      turns.push(turn);
      return [{ text: "stale" }];
    },
  };
}

export interface MediaGateway {
  readonly fake: RunningFake;
  readonly running: { readonly url: string };
  /** The echo responder, unless the gateway's own answers (`ownResponder`). */
  readonly responder: ReturnType<typeof echoResponder>;
  /** The gateway's data directory (its database, kept media). */
  readonly dataDir: string;
  /** The Prometheus text of the gateway's /metrics. */
  metrics(): Promise<string>;
  post(messages: readonly InboundSpecOf[]): Promise<number>;
  /** The texts the customer was sent, oldest first. */
  sent(): string[];
  reading(wamid: string): Promise<unknown>;
}

/**
 * The embedded gateway on the fake Graph API, answering with the echo responder (or, with
 * `ownResponder`, its own: the router, then the LLM agent). With `media`, a tenants file gives the
 * tenant `acme` those media settings. `cleanups` gets what closes it all.
 */
export async function startMediaGateway(
  cleanups: (() => Promise<void>)[],
  env: Record<string, string>,
  media?: Record<string, unknown>,
  options: {
    readonly ownResponder?: boolean;
    readonly backend?: "embedded" | "redis";
    /** The gateway's tracing (an in-memory capture); default off. */
    readonly tracing?: Tracing;
    /** More fields of the tenant `acme` (with `media` only): coalesce, replies… */
    readonly tenant?: Record<string, unknown>;
    /** The gateway's logger; default silent (TEST_LOG_LEVEL). */
    readonly logger?: Logger;
  } = {},
): Promise<MediaGateway> {
  const fake = await startFake();
  const dataDir = mkdtempSync(join(tmpdir(), "ss-voice-"));
  const responder = echoResponder();
  // A tenants file when the tenant has media settings: the `default` tenant of the variables has none.
  if (media !== undefined) {
    writeFileSync(
      join(dataDir, "tenants.json"),
      JSON.stringify({
        tenants: [
          {
            id: "acme",
            appSecretEnv: "ACME_SECRET",
            verifyTokenEnv: "ACME_VERIFY",
            graphTokenEnv: "ACME_TOKEN",
            phoneNumberIds: ["106540352242922"],
            coalesce: { windowMs: 0, maxMs: 0 },
            media,
            ...options.tenant,
          },
        ],
      }),
    );
  }
  const tenantEnv: Record<string, string> =
    media === undefined
      ? {}
      : {
          SHARPSHARP_CONFIG: join(dataDir, "tenants.json"),
          ACME_SECRET: APP_SECRET,
          ACME_VERIFY: "v",
          ACME_TOKEN: GRAPH_TOKEN,
        };
  const tenant = media === undefined ? "default" : "acme";
  const logger =
    options.logger ?? createLogger({ level: (process.env.TEST_LOG_LEVEL ?? "silent") as "silent" });
  const answering = {
    ...(options.ownResponder === true ? {} : { responder }),
    ...(options.tracing === undefined ? {} : { tracing: options.tracing }),
  };
  let store: MessageStore;
  let running: { readonly url: string; readonly adminUrl?: string; close(): Promise<void> };
  if (options.backend === "redis") {
    // An ingress and a worker on Redis, the message log on PostgreSQL, each in a namespace of its own.
    const prefix = uniquePrefix("media");
    const schema = uniqueSchema("media");
    const config = embeddedEnvConfig(fake.url, dataDir, {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      ...env,
      ...tenantEnv,
    });
    running = await startAll(config, { logger, ...answering });
    const pool = createTestPool();
    store = await openPostgresMessageStore({ pool, schema });
    cleanups.push(async () => {
      await running.close();
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
      const redis = new Redis(TEST_REDIS_URL);
      await deleteKeys(redis, prefix);
      redis.disconnect();
      await fake.fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
  } else {
    const embedded = await startEmbedded(embeddedEnvConfig(fake.url, dataDir, { ...env, ...tenantEnv }), {
      logger,
      ...answering,
    }).catch(async (error: unknown) => {
      // A start that is refused (what some tests look for) leaves nothing behind.
      await fake.fake.close();
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    });
    running = embedded;
    const live = await openLiveSqliteStore(embedded.databasePath);
    const { db } = live;
    store = live.store;
    cleanups.push(async () => {
      db.close();
      await embedded.close();
      await fake.fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
  }
  return {
    fake,
    running,
    responder,
    dataDir,
    async metrics() {
      const response = await fetch(`${running.adminUrl}/metrics`);
      return response.text();
    },
    async post(messages) {
      const body = mixedWebhook(messages);
      const url = `${running.url}/webhook${tenant === "default" ? "" : `/${tenant}`}`;
      const response = await fetch(url, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signatureFor(body, APP_SECRET),
        },
      });
      return response.status;
    },
    sent: () =>
      fake.fake
        .messages()
        .filter((message) => message.to?.replace(/^\+/, "") === CUSTOMER)
        .map((message) => String((message.body.text as { body?: string } | undefined)?.body)),
    async reading(wamid) {
      const page = await store.messagesOf(`${tenant}:106540352242922:${CUSTOMER}`, { limit: 100 });
      return page.items.find((item) => item.wamid === wamid)?.reading;
    },
  };
}

let sequence = 0;

/** A file held by the fake Graph API as the customer's image or document message. */
export function media(
  gateway: MediaGateway,
  kind: "image" | "document",
  bytes: Buffer,
  mimeType: string,
  extra: { readonly caption?: string; readonly filename?: string } = {},
): InboundSpecOf {
  const mediaId = `media-${++sequence}`;
  gateway.fake.fake.addMedia(mediaId, { bytes, mimeType });
  return {
    kind,
    wamid: `wamid.${kind}.${process.pid}.${++sequence}`,
    from: CUSTOMER,
    timestamp: Math.floor(Date.now() / 1000),
    mediaId,
    mimeType,
    sha256: createHash("sha256").update(bytes).digest("base64"),
    ...extra,
  };
}

/** A voice-note fixture held by the fake Graph API, as the customer's audio message. */
export function voice(
  gateway: MediaGateway,
  name: keyof typeof VOICE_NOTES,
  mediaId = `media-${++sequence}`,
): InboundSpecOf {
  const bytes = readVoiceNote(name);
  gateway.fake.fake.addMedia(mediaId, { bytes, mimeType: "audio/ogg; codecs=opus" });
  return {
    kind: "audio",
    wamid: `wamid.voice.${process.pid}.${++sequence}`,
    from: CUSTOMER,
    timestamp: Math.floor(Date.now() / 1000),
    mediaId,
    mimeType: "audio/ogg; codecs=opus",
    sha256: createHash("sha256").update(bytes).digest("base64"),
  };
}

export function text(body: string): InboundSpecOf {
  return {
    wamid: `wamid.text.${process.pid}.${++sequence}`,
    from: CUSTOMER,
    timestamp: Math.floor(Date.now() / 1000),
    text: body,
  };
}
