import type { Pool } from "pg";
import type { TableNames } from "../../store/postgres/index.js";
import type { NumberQuality, NumberStandings } from "../ports.js";

/** Standings by number; a webhook older than the standing held changes nothing. */
export function createPostgresNumberStandings(pool: Pool, tables: TableNames): NumberStandings {
  const { numberStandings } = tables;
  return {
    async get(phoneNumberId) {
      const result = await pool.query<{ messaging_limit: number | null; quality: string; updated_at: Date }>(
        `SELECT messaging_limit, quality, updated_at FROM ${numberStandings} WHERE phone_number_id = $1`,
        [phoneNumberId],
      );
      const row = result.rows[0];
      if (row === undefined) return undefined;
      return {
        phoneNumberId,
        ...(row.messaging_limit === null ? {} : { messagingLimit: row.messaging_limit }),
        quality: row.quality as NumberQuality,
        updatedAt: row.updated_at.getTime(),
      };
    },
    async set(standing) {
      await pool.query(
        `INSERT INTO ${numberStandings} AS n (phone_number_id, messaging_limit, quality, updated_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (phone_number_id) DO UPDATE SET messaging_limit = EXCLUDED.messaging_limit,
           quality = EXCLUDED.quality, updated_at = EXCLUDED.updated_at
         WHERE EXCLUDED.updated_at >= n.updated_at`,
        [
          standing.phoneNumberId,
          standing.messagingLimit ?? null,
          standing.quality,
          new Date(standing.updatedAt),
        ],
      );
    },
  };
}
