import { closeSync, fdatasync, openSync } from "node:fs";

/** Makes every commit so far durable, off the event loop. */
export interface WalSyncer {
  /** Resolves once every transaction committed before the call is on disk. */
  sync(): Promise<void>;
  close(): void;
}

/**
 * Group sync of a WAL database: commits run with synchronous=NORMAL (the
 * WAL frames are written, not yet flushed), then one fdatasync of the WAL
 * file on libuv's thread pool makes all of them durable, so the event loop
 * keeps reading webhooks during the flush. Calls made while a flush runs
 * share the next one: one flush per round, however many commits.
 * SQLite syncs the WAL itself before each checkpoint copies it into the
 * database, so nothing acknowledged moves out of the WAL unsynced.
 */
export function createWalSyncer(walPath: string): WalSyncer {
  const fd = openSync(walPath, "r");
  let running = false;
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const round = () => {
    running = true;
    const batch = waiting;
    waiting = [];
    fdatasync(fd, (error) => {
      for (const caller of batch) {
        if (error === null) caller.resolve();
        else caller.reject(error);
      }
      if (waiting.length > 0) round();
      else running = false;
    });
  };
  return {
    sync() {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ resolve, reject });
        if (!running) round();
      });
    },
    close() {
      closeSync(fd);
    },
  };
}
