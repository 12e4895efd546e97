import { closeSync, fdatasync, openSync } from "node:fs";

/** Makes every commit so far durable, off the event loop. */
export interface WalSyncer {
  /** Resolves once every transaction committed before the call is on disk. */
  sync(): Promise<void>;
  /** Waits for the flush in progress, then releases the file. */
  close(): Promise<void>;
}

/**
 * Group sync of a WAL database: commits run with synchronous=NORMAL (the
 * WAL frames are written, not yet flushed), then one fdatasync of the WAL
 * file on libuv's thread pool makes all of them durable, so the event loop
 * keeps reading webhooks during the flush. Calls made while a flush runs
 * share the next one: one flush per round, however many commits.
 * SQLite syncs the WAL itself before each checkpoint copies it into the
 * database, so nothing acknowledged moves out of the WAL unsynced.
 *
 * A failed flush is final: Linux may mark the pages clean after reporting
 * the error, so a later flush that succeeds would prove nothing. Every
 * later sync() rejects until the process restarts.
 */
export function createWalSyncer(walPath: string): WalSyncer {
  const fd = openSync(walPath, "r");
  let running: Promise<void> | undefined;
  let failed: Error | undefined;
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const round = () => {
    const batch = waiting;
    waiting = [];
    running = new Promise<void>((done) => {
      fdatasync(fd, (error) => {
        if (error !== null) failed ??= error;
        for (const caller of batch) {
          if (failed === undefined) caller.resolve();
          else caller.reject(failed);
        }
        done();
        if (waiting.length > 0) round();
        else running = undefined;
      });
    });
  };
  return {
    sync() {
      if (failed !== undefined) return Promise.reject(failed);
      return new Promise<void>((resolve, reject) => {
        waiting.push({ resolve, reject });
        if (running === undefined) round();
      });
    },
    async close() {
      while (running !== undefined) await running;
      closeSync(fd);
    },
  };
}
