import type { Redis } from "ioredis";

/** What the Redis server has done so far, from INFO: the counters a run's cost is the difference of. */
export interface RedisSnapshot {
  /** Calls per command, commands run inside Lua scripts included. */
  readonly calls: ReadonlyMap<string, number>;
  /** Microseconds the server spent executing commands. */
  readonly usec: number;
  readonly netInputBytes: number;
  readonly netOutputBytes: number;
  readonly usedMemoryBytes: number;
}

/** What one message cost Redis over a run, averaged. */
export interface RedisCostPerMessage {
  /** Scripts the clients ran (EVALSHA), each one round trip whatever it runs inside. */
  readonly evalshaCalls: number;
  /** Every command executed, those inside scripts included. */
  readonly executedCommands: number;
  readonly serverMicroseconds: number;
  readonly netInputBytes: number;
  readonly netOutputBytes: number;
  /** Memory still held once the run is done (dedupe keys, history, delivery records until their TTLs). */
  readonly retainedBytes: number;
  /** The five commands executed most, per message. */
  readonly top: Readonly<Record<string, number>>;
}

const field = (info: string, name: string): number =>
  Number(new RegExp(`^${name}:(\\d+)`, "m").exec(info)?.[1] ?? Number.NaN);

export async function redisSnapshot(redis: Redis): Promise<RedisSnapshot> {
  const [commandstats, stats, memory] = await Promise.all([
    redis.info("commandstats"),
    redis.info("stats"),
    redis.info("memory"),
  ]);
  const calls = new Map<string, number>();
  let usec = 0;
  for (const match of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    calls.set(match[1] as string, Number(match[2]));
    usec += Number(match[3]);
  }
  return {
    calls,
    usec,
    netInputBytes: field(stats, "total_net_input_bytes"),
    netOutputBytes: field(stats, "total_net_output_bytes"),
    usedMemoryBytes: field(memory, "used_memory"),
  };
}

// Commands a script runs are counted as executed; a script itself (EVALSHA, EVAL) is what the client sent.
const SCRIPT_COMMANDS = new Set(["evalsha", "eval", "evalsha_ro", "eval_ro", "fcall"]);

/**
 * The difference of two snapshots per message. INFO does not say which commands a script ran and
 * which a client sent: `executedCommands` is both, the scripts themselves left out.
 */
export function redisCostPerMessage(
  before: RedisSnapshot,
  after: RedisSnapshot,
  messages: number,
): RedisCostPerMessage {
  const per = (value: number) => Math.round((value / Math.max(1, messages)) * 100) / 100;
  const delta = new Map<string, number>();
  for (const [name, calls] of after.calls) delta.set(name, calls - (before.calls.get(name) ?? 0));
  let executed = 0;
  let scripts = 0;
  for (const [name, calls] of delta) {
    executed += calls;
    if (SCRIPT_COMMANDS.has(name)) scripts += calls;
  }
  const top = [...delta]
    .filter(([name]) => !SCRIPT_COMMANDS.has(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  return {
    evalshaCalls: per(delta.get("evalsha") ?? 0),
    executedCommands: per(executed - scripts),
    serverMicroseconds: per(after.usec - before.usec),
    netInputBytes: per(after.netInputBytes - before.netInputBytes),
    netOutputBytes: per(after.netOutputBytes - before.netOutputBytes),
    retainedBytes: per(after.usedMemoryBytes - before.usedMemoryBytes),
    top: Object.fromEntries(top.map(([name, calls]) => [name, per(calls)])),
  };
}
