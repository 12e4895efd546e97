import { duplicatePatient, type RedisClient } from "../../queue/redis/index.js";
import type { ConsoleEvent, ConsoleEventBus, ConsoleEventListener } from "../ports.js";

export interface RedisEventBusDeps {
  /** Publishes on it; also duplicated for the subscriber connection, opened on first subscribe. */
  readonly redis: RedisClient;
  readonly prefix: string;
  /** Told when a publish fails (Redis down): the console misses a live update, nothing else. */
  readonly onPublishError?: (error: unknown) => void;
}

/**
 * The bus across processes: workers publish on `{prefix}:console:events`,
 * console processes subscribe. Pub/sub keeps nothing; a console that was
 * away reads what it missed through the API.
 */
export function createRedisEventBus(deps: RedisEventBusDeps): ConsoleEventBus {
  const channel = `${deps.prefix}:console:events`;
  const listeners = new Set<ConsoleEventListener>();
  let subscriber: RedisClient | undefined;
  let subscribed: Promise<unknown> | undefined;

  const deliver = (_channel: string, text: string) => {
    let event: ConsoleEvent;
    try {
      event = JSON.parse(text) as ConsoleEvent;
    } catch {
      return;
    }
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // One broken stream must not keep the event from the others.
      }
    }
  };

  return {
    publish(event) {
      deps.redis
        .publish(channel, JSON.stringify(event))
        .catch((error: unknown) => deps.onPublishError?.(error));
    },
    async subscribe(listener) {
      if (subscriber === undefined) {
        // Its own connection (a subscribed one serves nothing else), which waits out reconnects:
        // the publisher's may be fail-fast, and ioredis subscribes again after each reconnect.
        subscriber = duplicatePatient(deps.redis);
        subscriber.on("error", () => {});
        subscriber.on("message", deliver);
      }
      const connection = subscriber;
      listeners.add(listener);
      subscribed ??= connection.subscribe(channel);
      await subscribed;
      return () => {
        listeners.delete(listener);
        // Nobody watching: stop receiving (and parsing) every change; the next stream subscribes again.
        if (listeners.size === 0 && subscribed !== undefined) {
          subscribed = undefined;
          connection.unsubscribe(channel).catch(() => {});
        }
      };
    },
    async close() {
      listeners.clear();
      subscriber?.disconnect();
      subscriber = undefined;
      subscribed = undefined;
    },
  };
}
