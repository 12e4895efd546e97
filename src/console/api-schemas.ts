import { z } from "zod";

/**
 * The console API's shapes, as zod schemas: request bodies and queries are
 * validated with them, and the OpenAPI document is generated from them, so
 * the document cannot drift from what the server does.
 */

const ms = z.number().int().describe("ms since the epoch");

export const errorBody = z
  .object({
    error: z.string().describe("a stable SS_… code (docs/errors.md)"),
    message: z.string(),
    retryAfterSeconds: z.number().optional(),
    assignedAgent: z.string().optional(),
  })
  .meta({ id: "Error" });

export const grant = z.object({
  tenantId: z.string().describe('a tenant id, or "*" for all'),
  role: z.enum(["admin", "agent"]),
});

export const operator = z
  .object({ id: z.string(), email: z.string(), name: z.string(), grants: z.array(grant) })
  .meta({ id: "Operator" });

export const sessionBody = z.object({ operator, csrfToken: z.string() }).meta({ id: "Session" });

export const loginRequest = z.object({
  email: z.string().min(3).max(320),
  password: z.string().min(1).max(1024),
});

export const tenant = z
  .object({
    id: z.string(),
    role: z.enum(["admin", "agent"]),
    phoneNumberIds: z.array(z.string()),
    simulator: z.object({ available: z.boolean(), reason: z.string().optional() }),
  })
  .meta({ id: "Tenant" });

export const mode = z.enum(["bot", "human", "paused"]);

export const conversation = z
  .object({
    tenantId: z.string(),
    conversationKey: z.string(),
    phoneNumberId: z.string(),
    customerId: z.string().optional(),
    customerName: z.string().optional(),
    mode,
    assignedAgent: z.string().optional().describe("the assigned operator's id"),
    assignedAgentName: z.string().optional(),
    lastActivityAt: ms,
    lastInboundAt: ms.optional(),
    awaitingReplySince: ms.optional().describe("the customer's oldest message not answered since"),
    unread: z.boolean(),
    lastMessage: z
      .object({
        direction: z.enum(["inbound", "outbound"]),
        type: z.string(),
        preview: z.string().optional(),
        at: ms,
      })
      .optional(),
  })
  .meta({ id: "Conversation" });

export const delivery = z.object({
  status: z.enum(["sent", "delivered", "read", "played", "deleted", "failed"]),
  at: ms,
  errorCode: z.number().optional(),
  errorTitle: z.string().optional(),
});

export const message = z
  .object({
    direction: z.enum(["inbound", "outbound"]),
    wamid: z.string().optional(),
    customerId: z.string().optional(),
    turnId: z.string().optional(),
    part: z.number().int().optional(),
    type: z.string(),
    text: z.string().optional(),
    body: z.unknown().optional().describe("outbound: the Graph API body as queued"),
    mediaId: z.string().optional(),
    caption: z.string().optional(),
    content: z.unknown().optional().describe("inbound: the whole normalised message"),
    reading: z
      .object({
        kind: z.enum(["audio", "image", "document", "video", "sticker"]),
        mediaId: z.string(),
        mimeType: z.string().optional(),
        size: z.number().int().optional(),
        sha256: z.string().optional(),
        fileName: z.string().optional(),
        transcript: z
          .object({
            text: z.string(),
            language: z.string().optional(),
            provider: z.string(),
            model: z.string(),
            costUsd: z.number().optional(),
          })
          .optional(),
        receipt: z.record(z.string(), z.unknown()).optional().describe("a transfer receipt's slots"),
        extractedText: z.string().optional().describe("a document's text (first pages, bounded)"),
        description: z.string().optional(),
        failure: z.object({ code: z.string(), reason: z.string() }).optional(),
      })
      .optional()
      .describe("inbound: what the worker read from the media (transcript, receipt, document text)"),
    metaTimestamp: z.number().int().optional().describe("inbound: Meta's timestamp, Unix seconds"),
    at: ms,
    sentBy: z.string().optional().describe("outbound: the operator who wrote it; absent: the bot"),
    sentByName: z.string().optional(),
    delivery: delivery.optional(),
  })
  .meta({ id: "Message" });

export const toolCall = z.object({
  name: z.string(),
  arguments: z.string(),
  result: z.string(),
  ok: z.boolean(),
});

export const turn = z
  .object({
    turnId: z.string(),
    at: ms,
    decision: z.object({
      tier: z.string(),
      intent: z.string(),
      confidence: z.number(),
      resolved: z.boolean(),
    }),
    agent: z
      .object({
        outcome: z.string(),
        promptTokens: z.number(),
        completionTokens: z.number(),
        costUsd: z.number(),
        tools: z.array(z.string()),
        calls: z.array(toolCall).optional(),
      })
      .optional(),
  })
  .meta({ id: "Turn" });

export const note = z
  .object({
    id: z.string(),
    operatorId: z.string(),
    operatorName: z.string().optional(),
    text: z.string(),
    at: ms,
  })
  .meta({ id: "Note" });

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next: z.string().optional() });

export const conversationList = page(conversation);
export const messageList = page(message);

export const conversationDetail = z.object({
  conversation,
  messages: z.array(message).describe("newest first"),
  nextMessages: z.string().optional(),
  turns: z.array(turn).describe("newest first"),
  notes: z.array(note).describe("newest first"),
  window: z.object({ open: z.boolean(), closesAt: ms.optional() }),
});

export const conversationQuery = z.object({
  tenant: z.string().optional().describe("default: every tenant the operator may see"),
  phoneNumberId: z.string().optional(),
  view: z.enum(["all", "needs_human", "mine", "bot", "paused", "unread"]).optional(),
  q: z.string().max(200).optional().describe("customer number prefix, name or message text"),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  before: z.string().max(500).optional(),
});

export const messagesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  before: z.string().max(500).optional(),
});

export const conversationResult = z.object({ conversation });

export const assignRequest = z.object({
  operatorId: z.string().nullable().optional().describe("default: me; null unassigns"),
});
export const modeRequest = z.object({ mode });

const buttonTitle = z.string().min(1).max(20);
export const replyRequest = z.object({
  text: z.string().trim().min(1).max(4096),
  buttons: z
    .array(z.object({ id: z.string().min(1).max(256), title: buttonTitle }))
    .max(3)
    .optional(),
  confirm: z.boolean().optional(),
});
export const templateRequest = z.object({
  name: z.string().min(1).max(512),
  language: z.string().min(2).max(15),
  parameters: z.array(z.string().max(1024)).max(20).optional(),
  confirm: z.boolean().optional(),
});
export const queued = z.object({ queued: z.object({ turnId: z.string(), part: z.number().int() }) });
export const noteRequest = z.object({ text: z.string().trim().min(1).max(4000) });
export const noteResult = z.object({ note });

export const template = z.object({
  name: z.string(),
  language: z.string(),
  category: z.string().optional(),
  status: z.string().optional(),
  body: z.string().optional(),
  parameterCount: z.number().int(),
});
export const templateList = z.object({ items: z.array(template), reason: z.string().optional() });

const interactiveChoice = z.object({ id: z.string().min(1).max(256), title: z.string().min(1).max(72) });
export const simulatorRequest = z
  .object({
    tenant: z.string(),
    phoneNumberId: z.string().optional(),
    from: z.string().regex(/^\d{6,15}$/, { error: "must be 6-15 digits (a wa_id)" }),
    name: z.string().max(100).optional(),
    text: z.string().min(1).max(4096).optional(),
    buttonReply: interactiveChoice.optional(),
    listReply: interactiveChoice.optional(),
    chaos: z
      .object({
        duplicate: z.boolean().optional(),
        outOfOrder: z.boolean().optional(),
        burst: z.boolean().optional(),
        staleReplay: z.boolean().optional(),
      })
      .optional(),
  })
  .refine(
    (body) => [body.text, body.buttonReply, body.listReply].filter((x) => x !== undefined).length === 1,
    {
      error: "give exactly one of text, buttonReply, listReply",
    },
  );
export const simulatorResult = z.object({ conversationKey: z.string(), wamids: z.array(z.string()) });

export const metricsQuery = z.object({
  tenant: z.string().optional(),
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .optional(),
});
const quantiles = z.object({ p50: z.number(), p99: z.number() }).nullable();
export const dashboard = z
  .object({
    bucketMs: z.number().int(),
    buckets: z.array(
      z.object({
        at: ms,
        inbound: z.number(),
        outbound: z.number(),
        operatorMessages: z.number(),
        turns: z.number(),
        localTurns: z.number(),
        agentTurns: z.number(),
        promptTokens: z.number(),
        completionTokens: z.number(),
        costUsd: z.number(),
        failedDeliveries: z.number(),
      }),
    ),
    totals: z.object({
      inbound: z.number(),
      outbound: z.number(),
      turns: z.number(),
      localTurns: z.number(),
      agentTurns: z.number(),
      localShare: z.number().describe("0..1"),
      llmCalls: z.number().optional(),
      promptTokens: z.number(),
      completionTokens: z.number(),
      costUsd: z.number(),
      savedUsd: z.number().describe("local turns × the average agent turn's cost"),
    }),
    latency: z.object({
      webhookAckMs: quantiles,
      endToEndMs: quantiles,
      since: z.string().optional().describe("what the latency figures cover"),
    }),
    queues: z.array(z.object({ name: z.string(), depth: z.number(), oldestAgeMs: z.number() })),
    deliveryFailures: z.array(
      z.object({ code: z.number(), title: z.string().optional(), count: z.number() }),
    ),
    handoffs: z.object({ waiting: z.number(), oldestWaitMs: z.number().optional() }),
    metaSilent: z.object({ silent: z.boolean(), minutes: z.number(), lastWebhookAt: ms.optional() }),
  })
  .meta({ id: "Dashboard" });

export const operatorCreateRequest = z.object({
  email: z.string().email().max(320),
  name: z.string().trim().min(1).max(100),
  password: z.string().min(10).max(1024),
  grants: z.array(grant).min(1),
});
export const operatorList = z.object({ items: z.array(operator) });
export const operatorResult = z.object({ operator });

export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: ms,
  lastUsedAt: ms.optional(),
  revokedAt: ms.optional(),
});
export const tokenCreateRequest = z.object({ name: z.string().trim().min(1).max(100) });
export const tokenCreated = z.object({
  token: z.string().describe("shown once: keep it; only its hash is stored"),
  apiToken,
});
export const tokenList = z.object({ items: z.array(apiToken) });
