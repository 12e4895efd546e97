import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkToken, type FakeGraphContext, passOutage } from "./fake-graph-context.js";
import { type GraphErrorReply, graphError, unknownObjectError } from "./graph-error.js";
import type { FakeRequestKind } from "./records.js";

/** Meta's media URLs stop working after about 5 minutes. */
export const MEDIA_URL_TTL_MS = 5 * 60_000;

const DOWNLOAD_PATH = "/media-download";

function urlHash(id: string, expires: string): string {
  return createHash("sha256").update(`${id}:${expires}`).digest("base64url").slice(0, 24);
}

type MediaRequest = FastifyRequest<{
  Params: { mediaId: string };
  Querystring: { ext?: string; hash?: string; fields?: string };
}>;

/**
 * `GET /{version}/{media-id}` (the media's URL, valid 5 minutes) and
 * `GET /media-download/{media-id}?…` (its bytes). Both need the bearer
 * token, as Meta's do.
 */
export function registerMediaRoutes(app: FastifyInstance, ctx: FakeGraphContext): void {
  const handle = async (
    request: MediaRequest,
    reply: FastifyReply,
    kind: FakeRequestKind,
    answer: () => GraphErrorReply | undefined,
  ) => {
    const receivedAt = ctx.now();
    const error = (await passOutage(ctx)) ?? checkToken(ctx, request) ?? answer();
    const base = { kind, path: request.url, receivedAt };
    if (error === undefined) {
      ctx.records.addRequest({ ...base, outcome: "accepted", status: 200 });
      return reply;
    }
    ctx.records.addRequest({
      ...base,
      outcome: "rejected",
      status: error.status,
      errorCode: error.body.error.code as number,
    });
    return reply.code(error.status).send(error.body);
  };

  app.get("/:version/:mediaId", async (request: MediaRequest, reply) => {
    const { mediaId } = request.params;
    // A business number's own fields (GET /{phone-number-id}?fields=…), as Meta answers them; not a media lookup.
    const asksNumberFields = request.query.fields?.includes("messaging_limit") === true;
    if (asksNumberFields && (ctx.phoneNumberIds === undefined || ctx.phoneNumberIds.has(mediaId))) {
      const error = checkToken(ctx, request);
      if (error !== undefined) return reply.code(error.status).send(error.body);
      const limit = ctx.messagingLimit.snapshot();
      return reply.send({
        id: mediaId,
        quality_rating: "GREEN",
        whatsapp_business_manager_messaging_limit: tierNameOf(
          limit.enabled ? limit.uniqueRecipients : undefined,
        ),
      });
    }
    return handle(request, reply, "media-url", () => {
      const media = ctx.media.get(mediaId);
      if (media === undefined) return unknownObjectError(mediaId, ctx.ids.traceId(), "get");
      if (ctx.faults.media.takeLookupFailure(mediaId)) return graphError(131000, ctx.ids.traceId());
      // An `expireUrls` fault hands out a URL whose time is up already.
      const ttl = ctx.faults.media.takeExpiredUrl(mediaId) ? -1000 : MEDIA_URL_TTL_MS;
      const expires = String(Math.floor((ctx.now() + ttl) / 1000));
      const base = ctx.publicUrl ?? `${request.protocol}://${request.host}`;
      const query = new URLSearchParams({ mid: mediaId, ext: expires, hash: urlHash(mediaId, expires) });
      reply.send({
        messaging_product: "whatsapp",
        url: `${base.replace(/\/$/, "")}${DOWNLOAD_PATH}/${encodeURIComponent(mediaId)}?${query}`,
        mime_type: media.mimeType,
        sha256: media.sha256,
        file_size: String(media.bytes.length),
        id: mediaId,
      });
      return undefined;
    });
  });

  app.get(`${DOWNLOAD_PATH}/:mediaId`, (request: MediaRequest, reply) =>
    handle(request, reply, "media-download", () => {
      const { mediaId } = request.params;
      const { ext, hash } = request.query;
      const media = ctx.media.get(mediaId);
      const valid =
        media !== undefined &&
        typeof ext === "string" &&
        hash === urlHash(mediaId, ext) &&
        ctx.now() <= Number(ext) * 1000;
      // Meta answers an expired or unknown URL with a plain 404.
      if (!valid) return unknownObjectError(mediaId, ctx.ids.traceId(), "get");
      if (ctx.faults.media.takeDownloadFailure(mediaId)) return graphError(131000, ctx.ids.traceId());
      let bytes = media.bytes;
      if (ctx.faults.media.isCorrupt(mediaId) && bytes.length > 0) {
        bytes = Buffer.from(bytes);
        bytes[0] = (bytes[0] as number) ^ 0xff;
      }
      reply.header("content-type", media.mimeType).send(bytes);
      return undefined;
    }),
  );
}

/** Meta's tier name for a number of unique customers per 24 h (the smallest tier that holds it). */
function tierNameOf(uniqueRecipients: number | undefined): string {
  if (uniqueRecipients === undefined) return "TIER_UNLIMITED";
  const tiers: readonly [number, string][] = [
    [50, "TIER_50"],
    [250, "TIER_250"],
    [1_000, "TIER_1K"],
    [2_000, "TIER_2K"],
    [10_000, "TIER_10K"],
    [100_000, "TIER_100K"],
  ];
  return tiers.find(([size]) => uniqueRecipients <= size)?.[1] ?? "TIER_UNLIMITED";
}
