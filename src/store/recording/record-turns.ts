import { type TurnDecision, type TurnDecisionHook, turnIdFor } from "../../conversation/index.js";
import type { MessageStore, TurnRecord } from "../ports.js";
import type { BestEffort } from "./best-effort.js";

/** A responder's decision as the message log's turn record. */
export function turnRecordOf(decision: TurnDecision, at: number): TurnRecord {
  const { turn, agent } = decision;
  return {
    turnId: turn.turnId ?? turnIdFor(turn.messages.map((message) => message.wamid)),
    tenantId: turn.tenant.id,
    conversationKey: turn.conversationKey,
    decision: {
      intent: decision.intent ?? "none",
      confidence: decision.confidence,
      resolved: decision.resolved,
      tier: decision.tier,
    },
    ...(agent === undefined
      ? {}
      : {
          agent: {
            outcome: agent.outcome,
            promptTokens: agent.promptTokens,
            completionTokens: agent.completionTokens,
            costUsd: agent.costUsd,
            tools: agent.tools,
            ...(decision.toolCalls === undefined || decision.toolCalls.length === 0
              ? {}
              : { calls: decision.toolCalls }),
          },
        }),
    at,
  };
}

/**
 * The responders' `onTurnDecision`: one turn record per turn, best effort (a
 * failed record must not repeat a turn whose agent already ran). A retried
 * turn keeps its first record (idempotent on turnId).
 */
export function recordTurnDecisions(store: MessageStore, bestEffort: BestEffort, now: () => number) {
  const hook: TurnDecisionHook = async (decision) => {
    const record = turnRecordOf(decision, now());
    await bestEffort("a turn", { conversationKey: record.conversationKey, turnId: record.turnId }, () =>
      store.recordTurn(record),
    );
  };
  return hook;
}
