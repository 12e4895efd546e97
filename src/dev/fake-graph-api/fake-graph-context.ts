import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyRequest } from "fastify";
import type { AccountWebhooks } from "./account-webhooks.js";
import type { Faults } from "./faults.js";
import { type GraphErrorReply, graphError } from "./graph-error.js";
import type { HangRegistry } from "./hang-registry.js";
import type { FakeGraphIds } from "./ids.js";
import type { MarketingCap } from "./marketing-cap.js";
import type { MediaStore } from "./media-store.js";
import type { MessagingLimit } from "./messaging-limit.js";
import type { Records } from "./records.js";
import type { SendLimits } from "./send-limits.js";
import type { StatusPoster } from "./status-poster.js";
import type { TemplateCategoryOf } from "./template-categories.js";

/** Everything the fake's routes share. */
export interface FakeGraphContext {
  readonly tokens: ReadonlySet<string>;
  /** When set, sends from any other phone number id are refused as Meta refuses an unknown object. */
  readonly phoneNumberIds: ReadonlySet<string> | undefined;
  readonly faults: Faults;
  readonly limits: SendLimits;
  readonly messagingLimit: MessagingLimit;
  readonly marketingCap: MarketingCap;
  readonly templateCategoryOf: TemplateCategoryOf;
  readonly records: Records;
  readonly media: MediaStore;
  readonly statuses: StatusPoster;
  readonly accountWebhooks: AccountWebhooks;
  readonly hangs: HangRegistry;
  readonly ids: FakeGraphIds;
  readonly now: () => number;
  /** Base of the media download URLs; default: the scheme and Host the client used. */
  readonly publicUrl: string | undefined;
  /** Aborted when the server closes, so delayed answers stop waiting. */
  readonly closing: AbortSignal;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === "string") {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  // Graph also takes the token as a query parameter.
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.access_token === "string" ? query.access_token : undefined;
}

/**
 * What every Graph API call meets first: the configured latency, then an
 * outage window (or a server closing meanwhile), answered 503 with 131016.
 */
export async function passOutage(ctx: FakeGraphContext): Promise<GraphErrorReply | undefined> {
  const { latencyMs } = ctx.faults.settings();
  if (latencyMs > 0) {
    await sleep(latencyMs, undefined, { signal: ctx.closing }).catch(() => undefined);
  }
  return ctx.closing.aborted || ctx.faults.inOutage() ? graphError(131016, ctx.ids.traceId()) : undefined;
}

/** The bearer token (header, or Graph's `access_token` query parameter) must be a configured one: else 190. */
export function checkToken(ctx: FakeGraphContext, request: FastifyRequest): GraphErrorReply | undefined {
  const token = bearerToken(request);
  if (token === undefined) {
    return graphError(190, ctx.ids.traceId(), {
      message: "An access token is required to request this resource.",
    });
  }
  return ctx.tokens.has(token) ? undefined : graphError(190, ctx.ids.traceId());
}
