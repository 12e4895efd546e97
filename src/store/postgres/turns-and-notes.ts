import type { Pool } from "pg";
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
import type { TableNames } from "./sql-names.js";

/** A conversation's turns (keyset-paged on (at, turn_id)), its notes, and when an operator last opened it. */
export function createPostgresTurnsAndNotes(pool: Pool, tables: TableNames) {
  return {
    async turnsOf(conversationKey: string, options: PageOptions): Promise<Page<TurnRecord>> {
      const limit = checkLimit(options.limit);
      const params: unknown[] = [conversationKey, limit + 1];
      let after = "";
      if (options.before !== undefined) {
        const keyset = decodeCursor(options.before);
        params.push(new Date(keyset.atMs), keyset.tieBreaker);
        after = "AND (at, turn_id) < ($3::timestamptz, $4::text)";
      }
      const result = await pool.query<TurnRow>(
        `SELECT ${TURN_COLUMNS} FROM ${tables.turns} WHERE conversation_key = $1 ${after}
         ORDER BY at DESC, turn_id DESC LIMIT $2`,
        params,
      );
      return pageOf(result.rows, limit, toTurnRecord, (row) => ({
        atMs: msOf(row.at),
        tieBreaker: row.turn_id,
      }));
    },

    async addNote(note: NoteRecord): Promise<StoredNote> {
      // Only onto a recorded conversation of the note's own tenant.
      const result = await pool.query<NoteRow>(
        `INSERT INTO ${tables.notes} (tenant_id, conversation_key, operator_id, text, at)
         SELECT $1, conversation_key, $2, $3, $4 FROM ${tables.conversations}
         WHERE conversation_key = $5 AND tenant_id = $1
         RETURNING ${NOTE_COLUMNS}`,
        [note.tenantId, note.operatorId, note.text, new Date(note.at), note.conversationKey],
      );
      const row = result.rows[0];
      if (row === undefined) throw new StoreUnknownConversationError("adding a note");
      return toStoredNote(row);
    },

    async notesOf(conversationKey: string, limit: number): Promise<StoredNote[]> {
      const result = await pool.query<NoteRow>(
        `SELECT ${NOTE_COLUMNS} FROM ${tables.notes} WHERE conversation_key = $1
         ORDER BY at DESC, id DESC LIMIT $2`,
        [conversationKey, checkLimit(limit)],
      );
      return result.rows.map(toStoredNote);
    },

    async markSeen(conversationKey: string, atMs: number): Promise<void> {
      await pool.query(
        `UPDATE ${tables.conversations} SET seen_at = GREATEST(seen_at, $2) WHERE conversation_key = $1`,
        [conversationKey, new Date(atMs)],
      );
    },
  };
}
