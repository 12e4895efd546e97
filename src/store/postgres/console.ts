import type { Pool } from "pg";
import type { ConsoleQueries } from "../ports.js";
import { createPostgresDashboardQueries } from "./dashboard-queries.js";
import { createPostgresFindConversations } from "./find-conversations.js";
import type { TableNames } from "./sql-names.js";
import { createPostgresTurnsAndNotes } from "./turns-and-notes.js";

/** The console's reads and notes over the PostgreSQL log. */
export function createPostgresConsole(pool: Pool, tables: TableNames, now: () => number): ConsoleQueries {
  return {
    ...createPostgresFindConversations(pool, tables),
    ...createPostgresTurnsAndNotes(pool, tables),
    ...createPostgresDashboardQueries(pool, tables, now),
  };
}
