import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../../observability/index.js";
import type { FakeMessageRecord, Records } from "./records.js";
import { postSignedWebhook, type WebhookPostResult, type WebhookTarget } from "./signed-webhook.js";
import { buildStatusWebhook, type FakeStatus, type StatusError } from "./status-webhook.js";
import type { TemplateCategory } from "./template-categories.js";
import { waIdOf } from "./validate-send.js";

export type { WebhookTarget } from "./signed-webhook.js";

export interface PostStatusOptions extends WebhookTarget {
  readonly wamid: string;
  readonly status: FakeStatus;
  /** For `failed`; default: one 131000 error. */
  readonly errors?: readonly StatusError[];
  /** Override what the fake knows of the message (needed for a wamid it never issued). */
  readonly phoneNumberId?: string;
  readonly recipientId?: string;
  readonly recipientUserId?: string;
  readonly bizOpaqueCallbackData?: string;
  /** Prices the status as a template of this category (default: the category the send was recorded with). */
  readonly templateCategory?: TemplateCategory;
  /** Whether `pricing` is written; default on sent and delivered (Meta: on sent and one of delivered or read). */
  readonly pricing?: boolean;
}

/** What the webhook receiver answered. */
export type PostStatusResult = WebhookPostResult;

export interface AutoStatusOptions extends Omit<WebhookTarget, "webhookUrl"> {
  /** Where to post; a function when the receiver's port is known only once it listens (the demo). */
  readonly webhookUrl: string | (() => string | undefined);
  /** Wait before each status, ms. */
  readonly delayMs: number;
  /**
   * Posted in this order for each accepted message; default sent, delivered,
   * read. `pricing` goes on sent and on the first delivered or read.
   */
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

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** Meta prices a message on `sent` and on one of delivered or read: the first of them posted. */
function pricedAt(statuses: readonly FakeStatus[]): ReadonlySet<FakeStatus> {
  const settled = statuses.find((status) => status === "delivered" || status === "read");
  return new Set<FakeStatus>(settled === undefined ? ["sent"] : ["sent", settled]);
}

/** Posts signed status webhooks like Meta, on demand and automatically after each accepted send. */
export function createStatusPoster(
  deps: StatusPosterDeps,
  auto: AutoStatusOptions | undefined,
): StatusPoster {
  const closing = new AbortController();
  const running = new Set<Promise<void>>();

  const postFor = (known: FakeMessageRecord | undefined, options: PostStatusOptions) => {
    const to = known?.to;
    const recipientId = options.recipientId ?? (to === undefined ? undefined : waIdOf(to));
    const recipientUserId = options.recipientUserId ?? (to === undefined ? known?.recipient : undefined);
    const callbackData = options.bizOpaqueCallbackData ?? known?.bizOpaqueCallbackData;
    const templateCategory = options.templateCategory ?? known?.templateCategory;
    const messageType = templateCategory === undefined ? known?.type : "template";
    const body = buildStatusWebhook({
      wamid: options.wamid,
      status: options.status,
      timestamp: Math.floor(deps.now() / 1000),
      wabaId: deps.business.wabaId,
      displayPhoneNumber: deps.business.displayPhoneNumber,
      phoneNumberId: options.phoneNumberId ?? known?.phoneNumberId ?? deps.business.phoneNumberId,
      ...(recipientId === undefined ? {} : { recipientId }),
      ...(recipientUserId === undefined ? {} : { recipientUserId }),
      ...(messageType === undefined ? {} : { messageType }),
      ...(templateCategory === undefined ? {} : { templateCategory }),
      ...(options.pricing === undefined ? {} : { priced: options.pricing }),
      ...(options.errors === undefined ? {} : { errors: options.errors }),
      ...(callbackData === undefined ? {} : { bizOpaqueCallbackData: callbackData }),
    });
    return postSignedWebhook(deps.fetch, options, body, closing.signal);
  };
  const post = (options: PostStatusOptions) => postFor(deps.records.findMessage(options.wamid), options);

  const followUp = async (message: FakeMessageRecord, options: AutoStatusOptions) => {
    const statuses = options.statuses ?? ["sent", "delivered", "read"];
    const priced = pricedAt(statuses);
    for (const status of statuses) {
      await sleep(options.delayMs, undefined, { signal: closing.signal });
      const webhookUrl = typeof options.webhookUrl === "string" ? options.webhookUrl : options.webhookUrl();
      if (webhookUrl === undefined) return;
      const result = await postFor(message, {
        appSecret: options.appSecret,
        webhookUrl,
        wamid: message.id,
        status,
        pricing: priced.has(status),
      });
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
