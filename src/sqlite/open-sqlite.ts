import { accessSync, chmodSync, constants, existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { CATCH_UP_FRAMES, startCheckpointer } from "./checkpointer.js";
import { SqliteUnavailableError } from "./errors.js";

export type SqliteDatabase = Database.Database;

export interface OpenSqliteOptions {
  /** SHARPSHARP_DATA_DIR; created if missing. */
  readonly dataDir: string;
  /** Default `sharpsharp.db`. */
  readonly fileName?: string;
  /** How often the WAL is checkpointed by a worker thread, ms; default 1,000. */
  readonly checkpointMs?: number;
  /** A WAL this many frames long is checkpointed pass after pass until it starts over; default 262,144 (256 MiB). */
  readonly checkpointCatchUpFrames?: number;
  /** Checkpoint errors (logged by the caller); default: ignored. */
  readonly onCheckpointError?: (message: string) => void;
}

/** A quarter more than a WAL of `catchUpFrames` 1 KiB pages (each frame: a 24-byte header and the page). */
export function walSizeLimitBytes(catchUpFrames: number): number {
  // Capped where SQLite still reads the number as a 64-bit integer.
  return Math.min(Math.ceil(catchUpFrames * 1.25) * (1024 + 24), Number.MAX_SAFE_INTEGER);
}

/** What an SQLite error code means for the person running sharpsharp. */
export function explainSqliteError(error: unknown, path: string): string {
  const code = (error as { code?: string } | undefined)?.code ?? "";
  if (code.startsWith("SQLITE_FULL")) return `the disk holding ${path} is full; free space and restart`;
  if (code.startsWith("SQLITE_READONLY") || code === "SQLITE_CANTOPEN" || code.startsWith("SQLITE_IOERR")) {
    return `${path} cannot be written (${code}); make SHARPSHARP_DATA_DIR a writable directory`;
  }
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return `${path} is held by another sharpsharp process; embedded mode runs as one process (stop the other one, or set REDIS_URL to run several)`;
  }
  return `${path}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Opens (creating it if needed) the embedded database: WAL journal with
 * synchronous=NORMAL, so every commit survives the process dying (kill -9);
 * commits that must also survive a power cut are followed by a WalSyncer
 * flush. One connection for the whole process, plus a checkpoint
 * thread (see startCheckpointer); one process per data directory. Fails fast with
 * SqliteUnavailableError when the directory or file cannot be written or
 * another process holds the file.
 */
export function openSqliteDatabase(options: OpenSqliteOptions): SqliteDatabase {
  const dir = resolve(options.dataDir);
  const path = join(dir, options.fileName ?? "sharpsharp.db");
  try {
    // Conversations and customers' numbers live here: a directory this process makes is its owner's only.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new SqliteUnavailableError(
      `SHARPSHARP_DATA_DIR ${dir} is not a writable directory (${(error as { code?: string }).code ?? String(error)}); point it at one this process can write`,
      error,
    );
  }
  let owner: SqliteDatabase | undefined;
  let db: SqliteDatabase | undefined;
  try {
    // The owner lock: a write in exclusive locking mode holds this small file until the
    // connection closes, which the OS ends with the process (even on kill -9), so a second
    // process on the same data directory fails here instead of racing the first.
    owner = new Database(join(dir, "sharpsharp.lock"), { timeout: 0 });
    ownerOnly(join(dir, "sharpsharp.lock"));
    owner.pragma("locking_mode = EXCLUSIVE");
    owner.exec("CREATE TABLE IF NOT EXISTS owner (pid INTEGER NOT NULL)");
    owner.prepare("INSERT INTO owner (pid) VALUES (?)").run(process.pid);
    db = new Database(path, { timeout: 5000 });
    // SQLite gives the -wal and -shm files it makes later the database file's permissions.
    ownerOnly(path);
    // Small pages: each commit writes every page it touched to the WAL in full, and inserts
    // under random keys (message ids, conversations) touch many; 1 KiB pages cut those bytes.
    // Takes effect only when the file is created.
    db.pragma("page_size = 1024");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("wal_autocheckpoint = 0");
    // SQLite's default 2 MiB of page cache, said outright because a bigger one costs more than it saves:
    // every commit ends by walking the cache's hash table (pcache1Truncate), so a commit's CPU grows
    // with the pages cached. At 64 MiB a commit took 64–72 µs against 33–34 µs, the walk was 8% of the
    // main thread at 100 messages/s, and text p99 end to end was 27–38 ms against 20 (bench/RESULTS.md).
    db.pragma("cache_size = -2000");
    // The WAL is rewritten from its start once checkpointed, and cut back to this size then. The cut
    // runs in the commit that restarts the WAL, on the event loop: cutting 256 MiB down to 64 MiB
    // stalled it 72–98 ms every ~20 s at 100 messages/s (bench/RESULTS.md). So the limit sits above
    // the size at which the checkpointer catches up, and only a WAL that outgrew that is cut.
    db.pragma(
      `journal_size_limit = ${walSizeLimitBytes(options.checkpointCatchUpFrames ?? CATCH_UP_FRAMES)}`,
    );
    // A write, so a read-only file or a full disk shows now, not on the first webhook.
    db.exec("CREATE TABLE IF NOT EXISTS ss_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    db.prepare("INSERT OR REPLACE INTO ss_meta (key, value) VALUES ('opened_at', ?)").run(String(Date.now()));
  } catch (error) {
    db?.close();
    owner?.close();
    throw new SqliteUnavailableError(explainSqliteError(error, path), error);
  }
  const opened = db;
  const onCheckpointError = options.onCheckpointError ?? (() => {});
  const checkpointer = startCheckpointer(path, {
    intervalMs: options.checkpointMs ?? 1000,
    ...(options.checkpointCatchUpFrames === undefined
      ? {}
      : { catchUpFrames: options.checkpointCatchUpFrames }),
    onError: onCheckpointError,
    // Without its thread the WAL would only grow: SQLite's own checkpoints take over (on the event loop).
    onExit: () => {
      if (!opened.open) return;
      opened.pragma("wal_autocheckpoint = 1000");
      onCheckpointError("the checkpoint thread stopped; SQLite checkpoints on the main thread from now on");
    },
  });
  const lock = owner;
  const closeDatabase = opened.close.bind(opened);
  // One close for the caller: the checkpointer and the owner lock go with the database.
  opened.close = () => {
    checkpointer.stop();
    closeDatabase();
    lock.close();
    return opened;
  };
  return opened;
}

/** Read and write for the owner only (0600), for the file and its -wal and -shm if they exist. */
function ownerOnly(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

/** True for SQLite errors that mean "nothing can be written now" (full disk, read-only, I/O). */
export function isSqliteWriteFailure(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? "";
  return /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|CORRUPT|NOTADB)/.test(code);
}

/** An SQLite write failure, or `also`, anywhere in the error's chain of causes (callers wrap them). */
export function causedBySqliteWriteFailure(
  error: unknown,
  also: (cause: unknown) => boolean = () => false,
): boolean {
  let cause = error;
  for (let depth = 0; depth < 8 && cause !== undefined && cause !== null; depth += 1) {
    if (isSqliteWriteFailure(cause) || also(cause)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
