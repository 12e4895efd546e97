import type { SqliteDatabase } from "../../sqlite/index.js";
import { StoreUnknownConversationError } from "../errors.js";
import { checkLimit, decodeCursor, pageOf } from "../keyset-cursor.js";
import type { NoteRecord, Page, PageOptions, StoredNote, TurnRecord } from "../ports.js";
import {
  msOf,
  NOTE_COLUMNS,
  type NoteRow,
  TURN_COLUMNS,
  type TurnRow,
  toStoredNote,
  toTurnRecord,
} from "../row-mapping.js";

type SqliteTurnRow = Omit<TurnRow, "decision" | "tools" | "calls"> & {
  decision: string;
  tools: string | null;
  calls: string | null;
};

const NEWEST_TURNS = "ORDER BY at DESC, turn_id DESC LIMIT ?";

/** A conversation's turns (keyset-paged on (at, turn_id)), its notes, and when an operator last opened it. */
export function createSqliteTurnsAndNotes(db: SqliteDatabase) {
  const newestTurns = db.prepare<[string, number], SqliteTurnRow>(
    `SELECT ${TURN_COLUMNS} FROM store_turns WHERE conversation_key = ? ${NEWEST_TURNS}`,
  );
  const olderTurns = db.prepare<[string, number, string, number], SqliteTurnRow>(
    `SELECT ${TURN_COLUMNS} FROM store_turns
     WHERE conversation_key = ? AND (at, turn_id) < (?, ?) ${NEWEST_TURNS}`,
  );
  // Only onto a recorded conversation of the note's own tenant.
  const insertNote = db.prepare<[string, string, string, number, string, string], { id: number }>(`
    INSERT INTO store_notes (tenant_id, conversation_key, operator_id, text, at)
    SELECT ?, conversation_key, ?, ?, ? FROM store_conversations WHERE conversation_key = ? AND tenant_id = ?
    RETURNING id`);
  const notes = db.prepare<[string, number], NoteRow>(
    `SELECT ${NOTE_COLUMNS} FROM store_notes WHERE conversation_key = ? ORDER BY at DESC, id DESC LIMIT ?`,
  );
  const markSeen = db.prepare<[number, number, string]>(
    "UPDATE store_conversations SET seen_at = max(coalesce(seen_at, ?), ?) WHERE conversation_key = ?",
  );

  return {
    turnsOf(conversationKey: string, options: PageOptions): Page<TurnRecord> {
      const limit = checkLimit(options.limit);
      let rows: SqliteTurnRow[];
      if (options.before === undefined) {
        rows = newestTurns.all(conversationKey, limit + 1);
      } else {
        const keyset = decodeCursor(options.before);
        rows = olderTurns.all(conversationKey, keyset.atMs, keyset.tieBreaker, limit + 1);
      }
      return pageOf(
        rows,
        limit,
        (row) =>
          toTurnRecord({
            ...row,
            decision: JSON.parse(row.decision) as TurnRecord["decision"],
            tools: row.tools === null ? null : (JSON.parse(row.tools) as string[]),
            calls: row.calls === null ? null : (JSON.parse(row.calls) as TurnRow["calls"]),
          }),
        (row) => ({ atMs: msOf(row.at), tieBreaker: row.turn_id }),
      );
    },

    addNote(note: NoteRecord): StoredNote {
      const at = Math.round(note.at);
      const inserted = insertNote.get(
        note.tenantId,
        note.operatorId,
        note.text,
        at,
        note.conversationKey,
        note.tenantId,
      );
      if (inserted === undefined) throw new StoreUnknownConversationError("adding a note");
      return { ...note, at, id: String(inserted.id) };
    },

    notesOf(conversationKey: string, limit: number): StoredNote[] {
      return notes.all(conversationKey, checkLimit(limit)).map(toStoredNote);
    },

    markSeen(conversationKey: string, atMs: number): void {
      const at = Math.round(atMs);
      markSeen.run(at, at, conversationKey);
    },
  };
}
