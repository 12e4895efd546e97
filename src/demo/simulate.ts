import { randomBytes as cryptoRandomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { EXAMPLE_BUSINESS, textWebhook } from "../dev/index.js";
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

export interface SimulateOptions {
  readonly text: string;
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

/**
 * `sharpsharp simulate`: posts a signed, Meta-shaped text webhook from
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
  const body = textWebhook(
    [[{ wamid, from: options.from, timestamp: Math.floor(now() / 1000), text: options.text }]],
    { ...EXAMPLE_BUSINESS, phoneNumberId: target.phoneNumberId },
  );
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
