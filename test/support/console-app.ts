import Fastify, { type FastifyInstance } from "fastify";
import { mountConsole } from "../../src/app/console-server.js";
import type { AppConfig } from "../../src/config/index.js";
import { createInProcessEventBus } from "../../src/console/embedded/index.js";
import { createOperatorAccount } from "../../src/console/index.js";
import { createSqliteConversationState } from "../../src/conversation/embedded/index.js";
import type { TurnJournal } from "../../src/conversation/index.js";
import { createLogger } from "../../src/observability/index.js";
import type { SqliteDatabase } from "../../src/sqlite/index.js";
import type { MessageStore, OperatorGrant } from "../../src/store/index.js";

/**
 * The console alone on a Fastify app (for `inject`), over a SQLite store a test filled itself,
 * with one operator logged in: answers the app and that operator's session cookie. Sends are
 * not expected (the outbound queue refuses them).
 */
export async function consoleAppOn(options: {
  readonly db: SqliteDatabase;
  readonly store: MessageStore;
  readonly config: AppConfig;
  readonly operator: {
    readonly email: string;
    readonly password: string;
    readonly grants: readonly OperatorGrant[];
  };
  readonly turnJournal?: TurnJournal;
}): Promise<{ app: FastifyInstance; cookie: string }> {
  const { db, store, operator } = options;
  await createOperatorAccount(store.operators, { ...operator, name: operator.email }, Date.now);
  const app = Fastify();
  await mountConsole(app, options.config, {
    store,
    conversationState: createSqliteConversationState({ db }),
    outboundQueue: {
      enqueue: async () => {
        throw new Error("not used");
      },
    },
    events: createInProcessEventBus(),
    logger: createLogger({ level: "silent" }),
    ...(options.turnJournal === undefined ? {} : { turnJournal: options.turnJournal }),
    ingressUrl: () => undefined,
  });
  const login = await app.inject({
    method: "POST",
    url: "/api/v1/session",
    payload: { email: operator.email, password: operator.password },
  });
  if (login.statusCode !== 200) throw new Error(`login answered ${login.statusCode}`);
  return { app, cookie: String(login.headers["set-cookie"]).split(";")[0] as string };
}
