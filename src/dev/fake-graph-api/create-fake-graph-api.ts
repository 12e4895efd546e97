import type { FastifyInstance } from "fastify";
import type { Logger } from "../../observability/index.js";
import { createSeededRandom, listenForUrl } from "../fake-server/index.js";
import {
  type AccountWebhooks,
  createAccountWebhooks,
  type PostPhoneNumberQualityOptions,
  type PostTemplateStatusOptions,
} from "./account-webhooks.js";
import { buildFakeGraphApp } from "./build-fake-graph-app.js";
import type { FakeGraphContext } from "./fake-graph-context.js";
import { createFaults, type FaultPatch, type FaultSettings } from "./faults.js";
import { createHangRegistry } from "./hang-registry.js";
import { createDefaultIds, type FakeGraphIds } from "./ids.js";
import { createMarketingCap, type MarketingCapSnapshot } from "./marketing-cap.js";
import { createMediaStore, type FakeMedia } from "./media-store.js";
import {
  createMessagingLimit,
  type MessagingLimitOptions,
  type MessagingLimitSnapshot,
} from "./messaging-limit.js";
import {
  createRecords,
  type FakeMessageRecord,
  type FakeRequestRecord,
  type MessageFilter,
} from "./records.js";
import { createSendLimits, type SendLimitOptions } from "./send-limits.js";
import {
  type AutoStatusOptions,
  type BusinessIdentity,
  createStatusPoster,
  type PostStatusOptions,
  type PostStatusResult,
} from "./status-poster.js";
import { createTemplateCategories, type TemplateCategory } from "./template-categories.js";

export interface FakeGraphApiDeps {
  readonly logger: Logger;
  /** ms since the epoch; drives limits, outage windows, media URL expiry and record times. */
  readonly now?: () => number;
  /** [0, 1); rolls errorRate, hangRate and marketingCapShare (see createSeededRandom). */
  readonly random?: () => number;
  readonly ids?: FakeGraphIds;
  /** Used to post status webhooks; default: global fetch. */
  readonly fetch?: typeof fetch;
}

export interface FakeGraphApiOptions {
  /** Bearer tokens the fake accepts. */
  readonly tokens: readonly string[];
  /** Phone number ids it knows; unset: any. */
  readonly phoneNumberIds?: readonly string[];
  /** Meta's throughput and pair limits; each off unless given. */
  readonly limits?: SendLimitOptions;
  /** Faults in force from the start. */
  readonly faults?: FaultPatch;
  /** Post sent, delivered, read for every accepted message. */
  readonly autoStatuses?: AutoStatusOptions;
  /** WABA id, display number and default phone number id written in status webhooks. */
  readonly business?: Partial<BusinessIdentity>;
  /** Base of media download URLs; default: the scheme and Host the client used. */
  readonly publicUrl?: string;
  /** Records kept of messages and of requests (each); default 100,000. */
  readonly maxRecords?: number;
  /** Meta's messaging limit on template sends to new customers (refused with 131048); off unless given. */
  readonly messagingLimit?: MessagingLimitOptions;
  /** Share (0–1) of marketing template sends refused with 131049 (Meta's per-user marketing cap); default 0. */
  readonly marketingCapShare?: number;
  /** Seeds the random source when deps.random is not given (default: Math.random). */
  readonly seed?: number;
  /** Template name → category, over the fake's catalog (FAKE_TEMPLATES); unknown names are marketing. */
  readonly templateCategories?: Readonly<Record<string, TemplateCategory>>;
}

/** A running (or ready to run) fake Graph API. */
export interface FakeGraphApi {
  readonly app: FastifyInstance;
  /** Listens (default 127.0.0.1, port 0) and returns the base URL. */
  listen(options?: { readonly host?: string; readonly port?: number }): Promise<string>;
  addMedia(id: string, media: FakeMedia): void;
  faults(): FaultSettings;
  setFaults(patch: FaultPatch): FaultSettings;
  messages(filter?: MessageFilter): FakeMessageRecord[];
  requests(): FakeRequestRecord[];
  /** Customers counted against the messaging limit, and sends it refused, per business number. */
  messagingLimit(): MessagingLimitSnapshot;
  /** Changes the messaging limit (undefined: off), as a tier change would; counted customers stay. */
  setMessagingLimit(options: MessagingLimitOptions | undefined): MessagingLimitSnapshot;
  marketingCap(): MarketingCapSnapshot;
  setMarketingCapShare(share: number): MarketingCapSnapshot;
  /** Forgets recorded messages and requests. */
  clearRecords(): void;
  /** Forgets records, faults, limit state and messaging-limit and marketing-cap counts (media stays). */
  reset(): void;
  /** Posts a signed status webhook for `wamid`, as Meta would. */
  postStatus(options: PostStatusOptions): Promise<PostStatusResult>;
  /** Posts a signed `phone_number_quality_update` webhook (quality flag, limit or throughput change). */
  postPhoneNumberQuality: AccountWebhooks["postPhoneNumberQuality"];
  /** Posts a signed `message_template_status_update` webhook (approved, rejected, paused, disabled …). */
  postTemplateStatus: AccountWebhooks["postTemplateStatus"];
  /** Stops listening, drops held (hanging) requests and pending status webhooks. */
  close(): Promise<void>;
}

/**
 * A stand-in for Meta's Graph API on a real HTTP port: sends, mark-as-read,
 * media, Meta's limits and errors, injectable faults, and status webhooks
 * posted back to a webhook URL. For tests, benchmarks and local runs.
 */
export function createFakeGraphApi(deps: FakeGraphApiDeps, options: FakeGraphApiOptions): FakeGraphApi {
  const now = deps.now ?? Date.now;
  const closing = new AbortController();
  const records = createRecords(options.maxRecords ?? 100_000);
  const random = deps.random ?? (options.seed === undefined ? Math.random : createSeededRandom(options.seed));
  const fetchFn = deps.fetch ?? fetch;
  const faults = createFaults(options.faults ?? {}, { now, random });
  const limits = createSendLimits(options.limits ?? {}, now);
  const messagingLimit = createMessagingLimit(options.messagingLimit, now);
  const marketingCap = createMarketingCap(options.marketingCapShare ?? 0, random);
  const business: BusinessIdentity = {
    wabaId: options.business?.wabaId ?? "114098765432109",
    displayPhoneNumber: options.business?.displayPhoneNumber ?? "2349012345678",
    phoneNumberId: options.business?.phoneNumberId ?? options.phoneNumberIds?.[0] ?? "106540352242922",
  };
  const statuses = createStatusPoster(
    { records, business, now, fetch: fetchFn, logger: deps.logger },
    options.autoStatuses,
  );
  const templateCategoryOf = createTemplateCategories(options.templateCategories);
  const accountWebhooks = createAccountWebhooks({
    business,
    now,
    fetch: fetchFn,
    templateCategoryOf,
    closing: closing.signal,
  });
  const ctx: FakeGraphContext = {
    tokens: new Set(options.tokens),
    phoneNumberIds: options.phoneNumberIds === undefined ? undefined : new Set(options.phoneNumberIds),
    faults,
    limits,
    messagingLimit,
    marketingCap,
    templateCategoryOf,
    records,
    media: createMediaStore(),
    statuses,
    accountWebhooks,
    hangs: createHangRegistry(),
    ids: deps.ids ?? createDefaultIds(),
    now,
    publicUrl: options.publicUrl,
    closing: closing.signal,
  };
  const reset = () => {
    records.clear();
    faults.update({ reset: true });
    limits.clear();
    messagingLimit.clear();
    marketingCap.clear();
  };
  const app = buildFakeGraphApp(ctx, deps.logger, reset);

  return {
    app,
    listen: (listenOptions) => listenForUrl(app, listenOptions),
    addMedia: (id, media) => ctx.media.add(id, media),
    faults: () => faults.settings(),
    setFaults: (patch) => faults.update(patch),
    messages: (filter) => records.messages(filter),
    requests: () => records.requests(),
    messagingLimit: () => messagingLimit.snapshot(),
    setMessagingLimit(limitOptions) {
      messagingLimit.configure(limitOptions);
      return messagingLimit.snapshot();
    },
    marketingCap: () => marketingCap.snapshot(),
    setMarketingCapShare(share) {
      marketingCap.setShare(share);
      return marketingCap.snapshot();
    },
    clearRecords: () => records.clear(),
    reset,
    postStatus: (postOptions) => statuses.post(postOptions),
    postPhoneNumberQuality: (postOptions: PostPhoneNumberQualityOptions) =>
      accountWebhooks.postPhoneNumberQuality(postOptions),
    postTemplateStatus: (postOptions: PostTemplateStatusOptions) =>
      accountWebhooks.postTemplateStatus(postOptions),
    async close() {
      closing.abort();
      await app.close();
      await statuses.close();
    },
  };
}
