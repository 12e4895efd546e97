import { accessSync, constants, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { SqliteUnavailableError } from "./errors.js";

export type SqliteDatabase = Database.Database;

export interface OpenSqliteOptions {
  /** SHARPSHARP_DATA_DIR; created if missing. */
  readonly dataDir: string;
  /** Default `sharpsharp.db`. */
  readonly fileName?: string;
  /**
   * Hold the file for this process only (SQLite's exclusive locking mode), so a
   * second process on the same file fails at open instead of racing it. Default true.
   */
  readonly exclusive?: boolean;
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
 * commits that must also survive a power cut go through `commitDurably`.
 * One connection for the whole process. Fails fast with
 * SqliteUnavailableError when the directory or file cannot be written or
 * another process holds the file.
 */
export function openSqliteDatabase(options: OpenSqliteOptions): SqliteDatabase {
  const dir = resolve(options.dataDir);
  const path = join(dir, options.fileName ?? "sharpsharp.db");
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new SqliteUnavailableError(
      `SHARPSHARP_DATA_DIR ${dir} is not a writable directory (${(error as { code?: string }).code ?? String(error)}); point it at one this process can write`,
      error,
    );
  }
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(path, { timeout: 500 });
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    if (options.exclusive ?? true) db.pragma("locking_mode = EXCLUSIVE");
    // A write, so a read-only file, a full disk or another owner shows now, not on the first webhook.
    db.exec("CREATE TABLE IF NOT EXISTS ss_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    db.prepare("INSERT OR REPLACE INTO ss_meta (key, value) VALUES ('opened_at', ?)").run(String(Date.now()));
    return db;
  } catch (error) {
    db?.close();
    throw new SqliteUnavailableError(explainSqliteError(error, path), error);
  }
}

/** True for SQLite errors that mean "nothing can be written now" (full disk, read-only, I/O). */
export function isSqliteWriteFailure(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? "";
  return /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|CORRUPT|NOTADB)/.test(code);
}

/**
 * Runs `work` as one transaction synced to disk before it returns
 * (synchronous=FULL for this commit). The WAL is written in order, so the
 * sync also makes every earlier commit durable: the ingress's acknowledged
 * messages and the sender's "sent" marks use it, everything else does not pay for it.
 */
export function commitDurably<T>(db: SqliteDatabase, work: () => T): T {
  db.pragma("synchronous = FULL");
  try {
    return db.transaction(work)();
  } finally {
    db.pragma("synchronous = NORMAL");
  }
}
