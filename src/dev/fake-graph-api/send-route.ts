import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkToken, type FakeGraphContext, passOutage } from "./fake-graph-context.js";
import { expiredTokenError, type GraphErrorReply, graphError, unknownObjectError } from "./graph-error.js";
import type { FakeMessageRecord, FakeRequestRecord } from "./records.js";
import { checkTemplateSend } from "./template-send-checks.js";
import { type MessageSend, validateSend } from "./validate-send.js";

type SendRequest = FastifyRequest<{ Params: { version: string; phoneNumberId: string } }>;
type Attempt = Omit<FakeRequestRecord, "seq" | "outcome" | "receivedAt">;

function parseJson(raw: unknown): unknown {
  if (!Buffer.isBuffer(raw) || raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

function successBody(send: MessageSend, wamid: string) {
  const contact =
    send.to !== undefined
      ? { input: send.to, wa_id: send.to.replace(/\D/g, "") }
      : { input: send.address, user_id: send.address };
  const message = send.type === "template" ? { id: wamid, message_status: "accepted" } : { id: wamid };
  return { messaging_product: "whatsapp", contacts: [contact], messages: [message] };
}

const MEDIA_TYPES = new Set(["image", "audio", "video", "document", "sticker"]);

/** A media send by an id the fake never stored is refused, as Meta refuses an unknown attachment id. */
function unknownMedia(ctx: FakeGraphContext, send: MessageSend): GraphErrorReply | undefined {
  if (!MEDIA_TYPES.has(send.type)) return undefined;
  const id = (send.body[send.type] as { id?: unknown }).id;
  if (typeof id !== "string" || ctx.media.get(id) !== undefined) return undefined;
  return graphError(100, ctx.ids.traceId(), {
    details: `Param ${send.type}['id'] is not a valid whatsapp business account media attachment ID`,
  });
}

/** The error Meta would answer a valid message send with right now, if any (faults, then limits). */
function refusal(
  ctx: FakeGraphContext,
  phoneNumberId: string,
  send: MessageSend,
): GraphErrorReply | undefined {
  const traceId = () => ctx.ids.traceId();
  const forced = ctx.faults.takeForced(send.address);
  if (forced === 190) return expiredTokenError(traceId());
  if (forced !== undefined) return graphError(forced, traceId());
  if (ctx.faults.rollError()) return graphError(131000, traceId());
  const limited = ctx.limits.take(phoneNumberId, send.address);
  return limited === undefined ? undefined : graphError(limited, traceId());
}

/**
 * `POST /{version}/{phone-number-id}/messages`: message sends, mark-as-read
 * and typing indicators, answered in Meta's wire format and recorded.
 */
export function registerSendRoute(app: FastifyInstance, ctx: FakeGraphContext): void {
  app.post("/:version/:phoneNumberId/messages", async (request: SendRequest, reply: FastifyReply) => {
    const { phoneNumberId } = request.params;
    const receivedAt = ctx.now();
    let attempt: Attempt = { kind: "send", path: request.url, phoneNumberId };
    const reject = (error: GraphErrorReply) => {
      ctx.records.addRequest({
        ...attempt,
        outcome: "rejected",
        status: error.status,
        errorCode: error.body.error.code as number,
        receivedAt,
      });
      return reply.code(error.status).send(error.body);
    };

    const outage = await passOutage(ctx);
    if (outage !== undefined) return reject(outage);
    if (ctx.faults.rollHang()) {
      ctx.records.addRequest({ ...attempt, outcome: "hung", receivedAt });
      ctx.hangs.hold(reply);
      return reply;
    }
    const unauthorized = checkToken(ctx, request);
    if (unauthorized !== undefined) return reject(unauthorized);
    if (ctx.phoneNumberIds !== undefined && !ctx.phoneNumberIds.has(phoneNumberId)) {
      return reject(unknownObjectError(phoneNumberId, ctx.ids.traceId(), "post"));
    }

    const validation = validateSend(parseJson(request.body));
    if (!validation.ok) {
      return reject(graphError(100, ctx.ids.traceId(), { details: validation.details }));
    }
    const { send } = validation;
    if (send.kind === "read") {
      attempt = { ...attempt, kind: "read" };
      ctx.records.addRequest({
        ...attempt,
        messageId: send.messageId,
        typing: send.typing,
        outcome: "accepted",
        status: 200,
        receivedAt,
      });
      return { success: true };
    }

    attempt = {
      ...attempt,
      type: send.type,
      ...(send.to === undefined ? {} : { to: send.to }),
      ...(send.recipient === undefined ? {} : { recipient: send.recipient }),
    };
    const refused = unknownMedia(ctx, send) ?? refusal(ctx, phoneNumberId, send);
    if (refused !== undefined) return reject(refused);
    const template = checkTemplateSend(ctx, phoneNumberId, send);
    if (template.refused !== undefined) return reject(template.refused);
    template.accept();

    const wamid = ctx.ids.wamid(send.address);
    const callbackData = send.body.biz_opaque_callback_data;
    const message: FakeMessageRecord = {
      id: wamid,
      phoneNumberId,
      ...(send.to === undefined ? {} : { to: send.to }),
      ...(send.recipient === undefined ? {} : { recipient: send.recipient }),
      type: send.type,
      ...(template.category === undefined ? {} : { templateCategory: template.category }),
      ...(typeof callbackData === "string" ? { bizOpaqueCallbackData: callbackData } : {}),
      body: send.body,
      receivedAt,
    };
    ctx.records.addMessage(message);
    ctx.records.addRequest({ ...attempt, outcome: "accepted", status: 200, wamid, receivedAt });
    ctx.statuses.follow(message);
    return successBody(send, wamid);
  });
}
