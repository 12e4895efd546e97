import type { ConversationSummary, StoredMessage, StoredNote, TurnRecord } from "../store/index.js";

type Names = (id: string | undefined) => string | undefined;

/** A store summary as the API shows it, with the assigned operator's name. */
export function conversationView(summary: ConversationSummary, names: Names) {
  const name = names(summary.assignedAgent);
  return { ...summary, ...(name === undefined ? {} : { assignedAgentName: name }) };
}

export function messageView(message: StoredMessage, names: Names) {
  const name = names(message.sentBy);
  return { ...message, ...(name === undefined ? {} : { sentByName: name }) };
}

export function noteView(note: StoredNote, names: Names) {
  const name = names(note.operatorId);
  return {
    id: note.id,
    operatorId: note.operatorId,
    text: note.text,
    at: note.at,
    ...(name === undefined ? {} : { operatorName: name }),
  };
}

export function turnView(turn: TurnRecord) {
  const base = { turnId: turn.turnId, at: turn.at, decision: turn.decision };
  if (turn.agent === undefined) return base;
  const { tools, calls, ...usage } = turn.agent;
  return {
    ...base,
    agent: { ...usage, tools: [...tools], ...(calls === undefined ? {} : { calls: [...calls] }) },
  };
}
