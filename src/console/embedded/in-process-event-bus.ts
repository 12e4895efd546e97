import type { ConsoleEvent, ConsoleEventBus, ConsoleEventListener } from "../ports.js";

/** The bus when the message log's writers and the console share one process (embedded mode). */
export function createInProcessEventBus(): ConsoleEventBus {
  const listeners = new Set<ConsoleEventListener>();
  return {
    publish(event: ConsoleEvent) {
      // Later, not now: a slow console must never delay the write that announced it.
      if (listeners.size === 0) return;
      queueMicrotask(() => {
        for (const listener of listeners) {
          try {
            listener(event);
          } catch {
            // One broken stream must not keep the event from the others.
          }
        }
      });
    },
    async subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
