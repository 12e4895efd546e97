import type { AppConfig } from "../config/index.js";
import { createSqliteConversationState } from "../conversation/embedded/index.js";
import type { ConversationMode } from "../conversation/index.js";
import { createRedisConversationState } from "../conversation/redis/index.js";
import { openSqliteDatabase } from "../sqlite/index.js";
import { openRedisClient } from "./redis/index.js";

/** `sharpsharp conversation mode <key> [mode]`, parsed. */
export interface ConversationModeCommand {
  readonly conversationKey: string;
  /** The mode to set; none: only show it. */
  readonly mode?: ConversationMode | undefined;
}

/**
 * Shows, or sets then shows, who answers a conversation, on the store of
 * the configured mode; answers the mode it holds now. Embedded: the SQLite
 * file is the running gateway's, so this works while the gateway is stopped
 * and says so otherwise (the file's owner lock).
 */
export async function runConversationModeCommand(
  config: AppConfig,
  command: ConversationModeCommand,
): Promise<ConversationMode> {
  const { conversationKey, mode } = command;
  if (config.redis.server === undefined) {
    const db = openSqliteDatabase({ dataDir: config.dataDir });
    try {
      const state = createSqliteConversationState({ db });
      if (mode !== undefined) await state.setMode(conversationKey, mode);
      return await state.mode(conversationKey);
    } finally {
      db.close();
    }
  }
  const redis = openRedisClient(config.redis.server, "command");
  redis.on("error", () => {});
  try {
    await redis.connect();
    const state = createRedisConversationState({ redis, prefix: config.redis.keyPrefix });
    if (mode !== undefined) await state.setMode(conversationKey, mode);
    return await state.mode(conversationKey);
  } finally {
    redis.disconnect();
  }
}
