import type { SqliteDatabase } from "../../sqlite/index.js";
import type { NumberQuality, NumberStandings } from "../ports.js";

/** Standings by number; a webhook older than the standing held changes nothing. */
export function createSqliteNumberStandings(db: SqliteDatabase): NumberStandings {
  const read = db.prepare<
    [string],
    { phone_number_id: string; messaging_limit: number | null; quality: string; updated_at: number }
  >("SELECT * FROM store_number_standings WHERE phone_number_id = ?");
  const write =
    db.prepare(`INSERT INTO store_number_standings (phone_number_id, messaging_limit, quality, updated_at)
    VALUES (@phoneNumberId, @messagingLimit, @quality, @updatedAt)
    ON CONFLICT (phone_number_id) DO UPDATE SET messaging_limit = excluded.messaging_limit,
      quality = excluded.quality, updated_at = excluded.updated_at
    WHERE excluded.updated_at >= store_number_standings.updated_at`);
  return {
    get: async (phoneNumberId) => {
      const row = read.get(phoneNumberId);
      if (row === undefined) return undefined;
      return {
        phoneNumberId: row.phone_number_id,
        ...(row.messaging_limit === null ? {} : { messagingLimit: row.messaging_limit }),
        quality: row.quality as NumberQuality,
        updatedAt: row.updated_at,
      };
    },
    set: async (standing) => {
      write.run({
        phoneNumberId: standing.phoneNumberId,
        messagingLimit: standing.messagingLimit ?? null,
        quality: standing.quality,
        updatedAt: standing.updatedAt,
      });
    },
  };
}
