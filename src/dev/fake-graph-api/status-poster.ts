import { setTimeout as sleep } from "node:timers/promises";
import { signatureFor } from "../../ingress/index.js";
import type { Logger } from "../../observability/index.js";
import type { FakeMessageRecord, Records } from "./records.js";
import { buildStatusWebhook, type FakeStatus, type StatusError } from "./status-webhook.js";
import { waIdOf } from "./validate-send.js";

/** Where and how to post status webhooks: the receiving webhook URL and the app secret that signs. */
export interface WebhookTarget {
  readonly webhookUrl: string;
  readonly appSecret: string;
}

export interface PostStatusOptions extends WebhookTarget {
  readonly wamid: string;
  readonly status: FakeStatus;
  /** For `failed`; default: one 131000 error. */
  readonly errors?: readonly StatusError[];
  /** Override what the fake knows of the message (needed for a wamid it never issued). */
  readonly phoneNumberId?: string;
  readonly recipientId?: string;
  readonly recipientUserId?: string;
}

/** What the webhook receiver answered. */
export interface PostStatusResult {
  readonly status: number;
  readonly body: string;
}

export interface AutoStatusOptions extends Omit<WebhookTarget, "webhookUrl"> {
  /** Where to post; a function when the receiver's port is known only once it listens (the demo). */
  readonly webhookUrl: string | (() => string | undefined);
  /** Wait before each status, ms. */
  readonly delayMs: number;
  /** Posted in this order for each accepted message; default sent, delivered, read. */
  readonly statuses?: readonly FakeStatus[];
}

export interface BusinessIdentity {
  readonly wabaId: string;
  readonly displayPhoneNumber: string;
  readonly phoneNumberId: string;
}

export interface StatusPosterDeps {
  readonly records: Records;
  readonly business: BusinessIdentity;
  readonly now: () => number;
  readonly fetch: typeof fetch;
  readonly logger: Logger;
}

export interface StatusPoster {
  post(options: PostStatusOptions): Promise<PostStatusResult>;
  /** Starts the automatic statuses of an accepted message (no-op without autoStatuses). */
  follow(message: FakeMessageRecord): void;
  /** Stops pending automatic statuses and waits for posts in flight to end. */
  close(): Promise<void>;
}

const POST_TIMEOUT_MS = 10_000;

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** Posts signed status webhooks like Meta, on demand and automatically after each accepted send. */
export function createStatusPoster(
  deps: StatusPosterDeps,
  auto: AutoStatusOptions | undefined,
): StatusPoster {
  const closing = new AbortController();
  const running = new Set<Promise<void>>();

  const post = async (options: PostStatusOptions): Promise<PostStatusResult> => {
    const known = deps.records.findMessage(options.wamid);
    const to = known?.to;
    const bsuid = known?.recipient;
    const recipientId = options.recipientId ?? (to === undefined ? undefined : waIdOf(to));
    const recipientUserId = options.recipientUserId ?? (to === undefined ? bsuid : undefined);
    const body = buildStatusWebhook({
      wamid: options.wamid,
      status: options.status,
      timestamp: Math.floor(deps.now() / 1000),
      wabaId: deps.business.wabaId,
      displayPhoneNumber: deps.business.displayPhoneNumber,
      phoneNumberId: options.phoneNumberId ?? known?.phoneNumberId ?? deps.business.phoneNumberId,
      ...(recipientId === undefined ? {} : { recipientId }),
      ...(recipientUserId === undefined ? {} : { recipientUserId }),
      ...(known === undefined ? {} : { messageType: known.type }),
      ...(options.errors === undefined ? {} : { errors: options.errors }),
      ...(typeof known?.body.biz_opaque_callback_data === "string"
        ? { bizOpaqueCallbackData: known.body.biz_opaque_callback_data }
        : {}),
    });
    const response = await deps.fetch(options.webhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": signatureFor(body, options.appSecret),
      },
      body,
      signal: AbortSignal.any([closing.signal, AbortSignal.timeout(POST_TIMEOUT_MS)]),
    });
    return { status: response.status, body: await response.text() };
  };

  const followUp = async (message: FakeMessageRecord, options: AutoStatusOptions) => {
    for (const status of options.statuses ?? ["sent", "delivered", "read"]) {
      await sleep(options.delayMs, undefined, { signal: closing.signal });
      const webhookUrl = typeof options.webhookUrl === "string" ? options.webhookUrl : options.webhookUrl();
      if (webhookUrl === undefined) return;
      const result = await post({ appSecret: options.appSecret, webhookUrl, wamid: message.id, status });
      if (result.status !== 200) {
        deps.logger.warn({ status: result.status, statusKind: status }, "status webhook not accepted");
      }
    }
  };

  return {
    post,
    follow(message) {
      if (auto === undefined || closing.signal.aborted) return;
      const task = followUp(message, auto).catch((error: unknown) => {
        if (!isAbort(error)) deps.logger.warn({ err: error }, "could not post a status webhook");
      });
      running.add(task);
      task.finally(() => running.delete(task));
    },
    async close() {
      closing.abort();
      await Promise.all([...running]);
    },
  };
}
