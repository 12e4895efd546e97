import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkToken, type FakeGraphContext, passOutage } from "./fake-graph-context.js";
import { type GraphErrorReply, graphError, unknownObjectError } from "./graph-error.js";
import { parseMultipart } from "./parse-multipart.js";
import { uploadRefusal } from "./upload-types.js";

/** Meta's largest file (a 100 MB document) and the multipart around it. */
const UPLOAD_BODY_LIMIT_BYTES = 101 * 1024 * 1024;

type UploadRequest = FastifyRequest<{ Params: { version: string; phoneNumberId: string } }>;

/** What Meta answers an upload with: an error, or the stored file. */
function store(ctx: FakeGraphContext, request: UploadRequest): GraphErrorReply | { readonly id: string } {
  const invalid = (details: string) => graphError(100, ctx.ids.traceId(), { details });
  const parts = parseMultipart(request.body, request.headers["content-type"]);
  if (parts === undefined) return invalid("The request body must be multipart/form-data");
  const field = (name: string) => parts.find((part) => part.name === name && part.fileName === undefined);
  if (field("messaging_product")?.data.toString("utf8") !== "whatsapp") {
    return invalid('Param messaging_product must be "whatsapp"');
  }
  const file = parts.find((part) => part.name === "file" && part.fileName !== undefined);
  if (file === undefined) return invalid("Param file is required and must be a file");
  const mimeType = field("type")?.data.toString("utf8") ?? file.contentType;
  if (mimeType === undefined || mimeType.trim() === "") return invalid("Param type is required");
  const refusal = uploadRefusal(mimeType, file.data.length);
  if (refusal !== undefined) return graphError(131053, ctx.ids.traceId(), { details: refusal });
  return { id: ctx.media.addUploaded({ bytes: file.data, mimeType }) };
}

/**
 * `POST /{version}/{phone-number-id}/media`: a multipart upload
 * (`messaging_product`, `type`, `file`), checked as Meta checks it (a type
 * outside its table, plain `audio/ogg` or a file over its kind's limit is
 * 131053) and stored, so `GET /{media-id}` serves it back.
 */
export function registerUploadRoute(app: FastifyInstance, ctx: FakeGraphContext): void {
  app.post(
    "/:version/:phoneNumberId/media",
    { bodyLimit: UPLOAD_BODY_LIMIT_BYTES },
    async (request: UploadRequest, reply: FastifyReply) => {
      const { phoneNumberId } = request.params;
      const receivedAt = ctx.now();
      const base = { kind: "media-upload" as const, path: request.url, phoneNumberId, receivedAt };
      const known = ctx.phoneNumberIds === undefined || ctx.phoneNumberIds.has(phoneNumberId);
      const answer =
        (await passOutage(ctx)) ??
        checkToken(ctx, request) ??
        (known ? store(ctx, request) : unknownObjectError(phoneNumberId, ctx.ids.traceId(), "post"));
      if ("id" in answer) {
        ctx.records.addRequest({ ...base, outcome: "accepted", status: 200 });
        return { id: answer.id };
      }
      ctx.records.addRequest({
        ...base,
        outcome: "rejected",
        status: answer.status,
        errorCode: answer.body.error.code as number,
      });
      return reply.code(answer.status).send(answer.body);
    },
  );
}
