import { createHash, randomBytes as cryptoRandomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { EXAMPLE_BUSINESS, mixedWebhook, textWebhook } from "../dev/index.js";
import { signatureFor } from "../ingress/index.js";
import { describeSentMessage } from "./describe-sent.js";
import { DemoError } from "./errors.js";

/** Where simulate posts and watches, and with what it signs. */
export interface SimulateTarget {
  /** The gateway's webhook URL (…/webhook or …/webhook/:tenant). */
  readonly webhookUrl: string;
  /** Base URL of a fake Graph API (its /_fake/messages shows what the bot sent). */
  readonly graphUrl: string;
  readonly appSecret: string;
  /** The business number the message is addressed to. */
  readonly phoneNumberId: string;
}

/** The MIME type WhatsApp gives a voice note, and simulate gives the fake Graph API's copy. */
export const VOICE_NOTE_MIME_TYPE = "audio/ogg; codecs=opus";

/** What the customer sends: `text`, or `voice` (an OGG/Opus file's bytes, sent as a voice note). */
export type SimulateOptions = SimulateCommon &
  ({ readonly text: string; readonly voice?: never } | { readonly voice: Uint8Array; readonly text?: never });

interface SimulateCommon {
  /** The customer's wa_id. */
  readonly from: string;
  /** How long to wait for the first reply, ms. */
  readonly timeoutMs: number;
  /** After a reply, how long to wait for more before returning, ms; default 700. */
  readonly settleMs?: number;
  /** Between polls of the fake Graph API, ms; default 100. */
  readonly pollMs?: number;
}

export interface SimulateDeps {
  readonly fetch?: typeof fetch;
  /** ms since the epoch. */
  readonly now?: () => number;
  readonly randomBytes?: (size: number) => Buffer;
}

/** One message the bot sent, as the customer would see it. */
export interface SimulatedReply {
  readonly wamid: string;
  readonly type: string;
  readonly lines: readonly string[];
}

export interface SimulateResult {
  /** The wamid of the simulated customer message. */
  readonly wamid: string;
  readonly replies: readonly SimulatedReply[];
}

interface RecordedMessage {
  readonly id: string;
  readonly type: string;
  readonly body: Record<string, unknown>;
}

/** Transport failures become DemoError("notRunning") naming what did not answer; nothing secret is in a URL. */
async function call(doFetch: typeof fetch, what: string, url: string, init?: RequestInit): Promise<Response> {
  try {
    return await doFetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new DemoError(
      "notRunning",
      `nothing answers at ${url} (${what}, ${reason}): is the demo running? Start it with \`npm start\` ` +
        "in another terminal",
      error,
    );
  }
}

async function sentTo(doFetch: typeof fetch, target: SimulateTarget, to: string): Promise<RecordedMessage[]> {
  const url = `${target.graphUrl}/_fake/messages?to=${encodeURIComponent(to)}`;
  const response = await call(doFetch, "the fake Graph API", url);
  const json: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
  if (!Array.isArray(json)) {
    throw new DemoError(
      "notRunning",
      `${target.graphUrl} is not a fake Graph API (GET /_fake/messages answered ${response.status}): ` +
        "simulate watches replies on the fake, so GRAPH_API_BASE_URL must point at one",
    );
  }
  return json as RecordedMessage[];
}

/** Registers a voice note with the fake Graph API (`PUT /_fake/media/:id`), where the gateway downloads it. */
async function addFakeMedia(
  doFetch: typeof fetch,
  target: SimulateTarget,
  mediaId: string,
  bytes: Uint8Array,
): Promise<void> {
  const url = `${target.graphUrl}/_fake/media/${encodeURIComponent(mediaId)}`;
  const response = await call(doFetch, "the fake Graph API", url, {
    method: "PUT",
    body: bytes,
    headers: { "content-type": VOICE_NOTE_MIME_TYPE },
  });
  if (response.status !== 201) {
    throw new DemoError(
      "notRunning",
      `${target.graphUrl} did not take the voice note (PUT /_fake/media answered ${response.status}): ` +
        "simulate --voice needs GRAPH_API_BASE_URL to be a fake Graph API",
    );
  }
}

/**
 * `sharpsharp simulate`: posts a signed, Meta-shaped text (or voice note) webhook from
 * `from` to the gateway, then watches the fake Graph API for what the bot
 * sends that customer, and returns it. Throws DemoError when the gateway or
 * the fake does not answer, the gateway refuses the webhook, or no reply
 * comes within `timeoutMs`.
 */
export async function simulate(
  target: SimulateTarget,
  options: SimulateOptions,
  deps: SimulateDeps = {},
): Promise<SimulateResult> {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  const random = deps.randomBytes ?? cryptoRandomBytes;
  // What the customer was sent before this message is not a reply to it.
  const before = new Set((await sentTo(doFetch, target, options.from)).map((message) => message.id));

  const wamid = `wamid.SIM${random(16).toString("hex").toUpperCase()}`;
  const business = { ...EXAMPLE_BUSINESS, phoneNumberId: target.phoneNumberId };
  const timestamp = Math.floor(now() / 1000);
  let body: Buffer;
  if (options.voice === undefined) {
    body = textWebhook([[{ wamid, from: options.from, timestamp, text: options.text }]], business);
  } else {
    // As Meta does: the audio is kept by the Graph API under a media id, and the webhook names that id.
    const mediaId = `sim${random(12).toString("hex")}`;
    await addFakeMedia(doFetch, target, mediaId, options.voice);
    body = mixedWebhook(
      [
        {
          kind: "audio",
          wamid,
          from: options.from,
          timestamp,
          mediaId,
          mimeType: VOICE_NOTE_MIME_TYPE,
          sha256: createHash("sha256").update(options.voice).digest("base64"),
        },
      ],
      business,
    );
  }
  const response = await call(doFetch, "the gateway", target.webhookUrl, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-hub-signature-256": signatureFor(body, target.appSecret),
    },
  });
  if (response.status !== 200) {
    const answer = (await response.text().catch(() => "")).slice(0, 300);
    throw new DemoError(
      "rejected",
      `the gateway at ${target.webhookUrl} answered ${response.status} ${answer}`.trim() +
        (response.status === 401 ? " (the app secret does not match the gateway's)" : ""),
    );
  }

  const deadline = now() + options.timeoutMs;
  let replies: RecordedMessage[] = [];
  let quietSince = now();
  while (true) {
    const fresh = (await sentTo(doFetch, target, options.from)).filter((message) => !before.has(message.id));
    if (fresh.length > replies.length) {
      replies = fresh;
      quietSince = now();
    }
    if (replies.length > 0 && now() - quietSince >= (options.settleMs ?? 700)) break;
    if (replies.length === 0 && now() >= deadline) {
      throw new DemoError(
        "noReply",
        `the gateway took the message (200) but sent no reply within ${options.timeoutMs} ms: ` +
          "look at the gateway's log (LOG_LEVEL=info), or wait longer with --timeout-ms",
      );
    }
    await sleep(options.pollMs ?? 100);
  }
  return {
    wamid,
    replies: replies.map((message) => ({
      wamid: message.id,
      type: message.type,
      lines: describeSentMessage(message.body),
    })),
  };
}
