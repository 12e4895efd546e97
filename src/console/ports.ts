import type { StoredConversationMode } from "../store/index.js";

/**
 * A change the console shows live. Small on purpose: it names what changed,
 * and the console reads the details through the API (which checks access).
 */
export type ConsoleEvent =
  | {
      readonly kind: "message";
      readonly tenantId: string;
      readonly conversationKey: string;
      readonly direction: "inbound" | "outbound";
      readonly type: string;
      readonly at: number;
    }
  | {
      readonly kind: "status";
      readonly tenantId: string;
      readonly wamid: string;
      readonly status: string;
    }
  | {
      readonly kind: "mode";
      readonly tenantId: string;
      readonly conversationKey: string;
      readonly mode: StoredConversationMode;
      readonly assignedAgent?: string;
    }
  | { readonly kind: "note"; readonly tenantId: string; readonly conversationKey: string }
  | {
      readonly kind: "turn";
      readonly tenantId: string;
      readonly conversationKey: string;
      readonly turnId: string;
    };

export type ConsoleEventListener = (event: ConsoleEvent) => void;

/**
 * Where the processes that write the message log announce changes, and
 * where consoles hear them: in this process (embedded), or across processes
 * (Redis pub/sub). Best effort by design: a console that misses an event
 * catches up at its next read, so nothing here is durable.
 */
export interface ConsoleEventBus {
  /** Never throws and never waits for listeners. */
  publish(event: ConsoleEvent): void;
  /** Calls `listener` for each event from now on; the answer stops it. */
  subscribe(listener: ConsoleEventListener): Promise<() => void>;
  close(): Promise<void>;
}
