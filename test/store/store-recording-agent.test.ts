import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CANCEL_PREFIX,
  createAgentResponder,
  createKnowledgeBase,
  createTenantToolbox,
  type LlmClient,
  type LlmCompletion,
  resolveAgentSettings,
} from "../../src/agent/index.js";
import {
  createRedisPendingActions,
  createRedisTenantSlots,
  createRedisTokenBudget,
} from "../../src/agent/redis/index.js";
import type { TenantConfig } from "../../src/config/index.js";
import type { TurnInput } from "../../src/conversation/index.js";
import { createRedisConversationState } from "../../src/conversation/redis/index.js";
import { createLogger } from "../../src/observability/index.js";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { createStoreRecorders } from "../../src/store/recording/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";
import { testTenant } from "../support/ingress-harness.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const KEY = "default:106540352242922:2348012345678";
const logger = createLogger({ level: "silent" });

/** An LLM that looks the FAQ up once, then answers: enough for a turn with a tool and usage. */
function scriptedLlm(): LlmClient {
  return {
    async complete(request) {
      const looked = request.messages.some((message) => message.role === "tool");
      const answer: LlmCompletion = looked
        ? {
            content: "We dey open 8am to 9pm.",
            toolCalls: [],
            usage: { promptTokens: 300, completionTokens: 20 },
            provider: "primary",
            model: "m",
          }
        : {
            content: null,
            toolCalls: [
              { id: "call-1", name: "lookup_knowledge", arguments: JSON.stringify({ query: "hours" }) },
            ],
            usage: { promptTokens: 200, completionTokens: 10 },
            provider: "primary",
            model: "m",
          };
      return answer;
    },
  };
}

function message(wamid: string, over: Partial<InboundMessage> = {}): InboundMessage {
  return {
    tenantId: "default",
    phoneNumberId: "106540352242922",
    wabaId: "waba-1",
    conversationKey: KEY,
    wamid,
    timestamp: Math.floor(Date.now() / 1000),
    receivedAt: Date.now(),
    type: "text",
    customer: { waId: "2348012345678" },
    text: "abeg which time una dey open for weekend?",
    ...over,
  };
}

describe.skipIf(skipWithoutRedis)("turn records from the agent responder (real Redis, SQLite store)", () => {
  const prefix = uniquePrefix("rec-agent");
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const dir = mkdtempSync(join(tmpdir(), "ss-recording-agent-"));
  let db: SqliteDatabase;
  const tenant: TenantConfig = {
    ...testTenant("default"),
    settings: { knowledge: [{ id: "hours", q: "When are you open?", a: "8am to 9pm" }] },
  };
  let respond: (turn: TurnInput) => Promise<unknown>;
  let respondToStale: (turn: TurnInput) => Promise<unknown>;

  beforeAll(() => {
    db = openSqliteDatabase({ dataDir: dir });
    const recorders = createStoreRecorders(createSqliteMessageStore(db), logger, { now: () => 1_000 });
    const responder = createAgentResponder([tenant], {
      llm: scriptedLlm(),
      state: createRedisConversationState({ redis, prefix }),
      slots: createRedisTenantSlots(redis, prefix, 30_000),
      pending: createRedisPendingActions(redis, prefix),
      budget: createRedisTokenBudget(redis, prefix),
      toolbox: (t) => createTenantToolbox(t),
      knowledge: (t) => createKnowledgeBase(resolveAgentSettings(t).knowledge),
      logger,
      deadlineMs: 5_000,
      maxToolSteps: 3,
      onTurnDecision: recorders.onTurnDecision,
    });
    respond = (turn) => responder.respond(turn);
    respondToStale = (turn) => responder.respondToStale(turn);
  });
  afterAll(async () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  const turns = () =>
    db
      .prepare(
        "SELECT turn_id, decision, agent_outcome, prompt_tokens, completion_tokens, tools, at FROM store_turns ORDER BY turn_id",
      )
      .all() as Record<string, unknown>[];

  it("records an agent turn with the router's view, the agent's usage and its tools, under the turn's id", async () => {
    await respond({ tenant, conversationKey: KEY, messages: [message("wamid.a1")], turnId: "turn-agent" });
    expect(turns()).toEqual([
      {
        turn_id: "turn-agent",
        decision: JSON.stringify({ intent: "none", confidence: 0, resolved: false, tier: "agent" }),
        agent_outcome: "answered",
        prompt_tokens: 500,
        completion_tokens: 30,
        tools: JSON.stringify(["lookup_knowledge"]),
        at: 1_000,
      },
    ]);
  });

  it("records taps on an expired confirmation and stale turns too", async () => {
    await respond({
      tenant,
      conversationKey: KEY,
      messages: [
        message("wamid.tap", { type: "interactive", text: "Cancel", replyId: `${CANCEL_PREFIX}gone` }),
      ],
      turnId: "turn-cancel",
    });
    await respondToStale({
      tenant,
      conversationKey: KEY,
      messages: [message("wamid.old")],
      turnId: "turn-stale",
    });
    const byId = new Map(turns().map((row) => [row.turn_id, JSON.parse(row.decision as string)]));
    expect(byId.get("turn-cancel")).toEqual({
      intent: "cancel",
      confidence: 1,
      resolved: true,
      tier: "confirm",
    });
    expect(byId.get("turn-stale")).toEqual({ intent: "stale", confidence: 1, resolved: true, tier: "stale" });
  });
});
