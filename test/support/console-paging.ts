import type { ConversationQuery, ConversationSummary, MessageStore } from "../../src/store/index.js";

/** Every page of a console list, following `next`: the conversations in the order served, and the pages. */
export async function walkConversations(
  store: MessageStore,
  query: ConversationQuery,
  limit: number,
): Promise<{ readonly conversations: ConversationSummary[]; readonly pages: number }> {
  const conversations: ConversationSummary[] = [];
  let pages = 0;
  let before: string | undefined;
  do {
    const page = await store.console.findConversations(
      query,
      before === undefined ? { limit } : { limit, before },
    );
    conversations.push(...page.items);
    pages += 1;
    before = page.next;
  } while (before !== undefined);
  return { conversations, pages };
}

/** Whether each conversation is older than the one before it (activity, then key, as SQL orders them). */
export function strictlyNewestFirst(conversations: readonly ConversationSummary[]): boolean {
  return conversations.every((conversation, i) => {
    const previous = conversations[i - 1];
    if (previous === undefined) return true;
    if (previous.lastActivityAt !== conversation.lastActivityAt) {
      return previous.lastActivityAt > conversation.lastActivityAt;
    }
    return previous.conversationKey > conversation.conversationKey;
  });
}
