import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { JournaledTurn, ResumedTurn, SetAsideTurn, TurnJournal } from "../ports.js";

export interface RedisTurnJournalOptions {
  /** Owned by the caller. */
  readonly redis: RedisClient;
  readonly prefix: string;
  /** A begun turn is forgotten this long after its last write, ms; default 7 days. */
  readonly ttlMs?: number;
  /** Set-aside turns kept (newest first); default 10,000. */
  readonly keepSetAside?: number;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
}

/**
 * beginTurn — replaces the conversation's journal with a new turn, at its first attempt.
 *
 * KEYS[1]   journal hash
 * ARGV[1]   turn id; ARGV[2] turn JSON; ARGV[3] ttl ms
 */
const BEGIN_LUA = `
redis.call("DEL", KEYS[1])
redis.call("HSET", KEYS[1], "turnId", ARGV[1], "attempts", 1, "turn", ARGV[2])
redis.call("PEXPIRE", KEYS[1], ARGV[3])
return 1
`;

/**
 * resumeTurn — counts a run of the conversation's begun turn.
 *
 * KEYS[1]   journal hash
 * ARGV[1]   ttl ms
 * Returns   the hash as a flat field/value list after HINCRBY attempts, or {} when there is no turn
 */
const RESUME_LUA = `
if redis.call("EXISTS", KEYS[1]) == 0 then return {} end
redis.call("HINCRBY", KEYS[1], "attempts", 1)
redis.call("PEXPIRE", KEYS[1], ARGV[1])
return redis.call("HGETALL", KEYS[1])
`;

/**
 * recordStep — stores a step's result if the turn is still the conversation's.
 *
 * KEYS[1]   journal hash
 * ARGV[1]   turn id; ARGV[2] field ("s:" .. step); ARGV[3] JSON value; ARGV[4] ttl ms
 * Returns   1 recorded, 0 another turn (or none)
 */
const RECORD_LUA = `
if redis.call("HGET", KEYS[1], "turnId") ~= ARGV[1] then return 0 end
redis.call("HSET", KEYS[1], ARGV[2], ARGV[3])
redis.call("PEXPIRE", KEYS[1], ARGV[4])
return 1
`;

/**
 * releaseRun — takes back one counted run of the turn, if it is still the conversation's.
 *
 * KEYS[1]   journal hash
 * ARGV[1]   turn id
 * Returns   1 released, 0 another turn (or none)
 */
const RELEASE_LUA = `
if redis.call("HGET", KEYS[1], "turnId") ~= ARGV[1] then return 0 end
if tonumber(redis.call("HGET", KEYS[1], "attempts")) > 0 then redis.call("HINCRBY", KEYS[1], "attempts", -1) end
return 1
`;

/**
 * endTurn — deletes the turn if it is still the conversation's; with a set-aside list, keeps it there.
 *
 * KEYS[1]   journal hash; KEYS[2] set-aside list
 * ARGV[1]   turn id; ARGV[2] set-aside entry prefix JSON ("" to only delete); ARGV[3] entries kept
 * Returns   1 ended, 0 another turn (or none)
 */
const END_LUA = `
if redis.call("HGET", KEYS[1], "turnId") ~= ARGV[1] then return 0 end
if ARGV[2] ~= "" then
  local turn = redis.call("HGET", KEYS[1], "turn")
  local attempts = redis.call("HGET", KEYS[1], "attempts")
  redis.call("LPUSH", KEYS[2], ARGV[2] .. ',"attempts":' .. attempts .. ',"turn":' .. turn .. '}')
  redis.call("LTRIM", KEYS[2], 0, tonumber(ARGV[3]) - 1)
end
redis.call("DEL", KEYS[1])
return 1
`;

const STEP = "s:";

/**
 * TurnJournal on Redis: `{p}:journal:{conversationKey}` is a hash of the
 * turn (JSON), its id, its attempts and one `s:<step>` field per recorded
 * step; set-aside turns are a capped list `{p}:setaside`. Every write is one
 * round trip.
 */
export function createRedisTurnJournal(options: RedisTurnJournalOptions): TurnJournal {
  const { redis, prefix } = options;
  const ttlMs = options.ttlMs ?? 7 * 24 * 3_600_000;
  const keep = options.keepSetAside ?? 10_000;
  const now = options.now ?? Date.now;
  const key = (conversationKey: string) => `${prefix}:journal:${conversationKey}`;
  const setAsideKey = `${prefix}:setaside`;
  const beginTurn = defineScript(redis, "ssBeginTurn", BEGIN_LUA);
  const resumeTurn = defineScript(redis, "ssResumeTurn", RESUME_LUA);
  const recordStep = defineScript(redis, "ssRecordTurnStep", RECORD_LUA);
  const releaseRun = defineScript(redis, "ssReleaseTurnRun", RELEASE_LUA);
  const endTurn = defineScript(redis, "ssEndTurn", END_LUA);
  return {
    async begin(conversationKey, turn) {
      await beginTurn(1, key(conversationKey), turn.turnId, JSON.stringify(turn), ttlMs);
    },
    async resume(conversationKey) {
      const flat = (await resumeTurn(1, key(conversationKey), ttlMs)) as string[];
      if (flat.length === 0) return undefined;
      const fields = new Map<string, string>();
      for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i] as string, flat[i + 1] as string);
      const turn = JSON.parse(fields.get("turn") ?? "null") as JournaledTurn | null;
      if (turn === null) return undefined;
      const steps = new Map<string, unknown>();
      for (const [field, value] of fields) {
        if (field.startsWith(STEP)) steps.set(field.slice(STEP.length), JSON.parse(value));
      }
      return { ...turn, attempts: Number(fields.get("attempts") ?? 1), steps } satisfies ResumedTurn;
    },
    async record(conversationKey, turnId, step, value) {
      await recordStep(
        1,
        key(conversationKey),
        turnId,
        `${STEP}${step}`,
        JSON.stringify(value ?? null),
        ttlMs,
      );
    },
    async release(conversationKey, turnId) {
      await releaseRun(1, key(conversationKey), turnId);
    },
    async finish(conversationKey, turnId) {
      await endTurn(2, key(conversationKey), setAsideKey, turnId, "", keep);
    },
    async setAside(conversationKey, turnId, reason) {
      // The entry's head; the script appends the attempts and the turn as stored.
      const head = JSON.stringify({ conversationKey, reason, setAsideAt: now() }).slice(0, -1);
      await endTurn(2, key(conversationKey), setAsideKey, turnId, head, keep);
    },
    async setAsideTurns(limit) {
      const entries = await redis.lrange(setAsideKey, 0, Math.max(0, limit - 1));
      return entries.map((entry) => {
        const { turn, ...rest } = JSON.parse(entry) as Omit<SetAsideTurn, keyof JournaledTurn> & {
          turn: JournaledTurn;
        };
        return { ...turn, ...rest };
      });
    },
  };
}
