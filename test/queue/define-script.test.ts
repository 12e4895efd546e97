import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { createRedisConversationLock, createRedisTurnJournal } from "../../src/conversation/redis/index.js";
import { defineScript } from "../../src/queue/redis/index.js";
import { eventually } from "../support/eventually.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

/** The EVAL and EVALSHA commands Redis was sent for keys under `prefix` while `work` ran (waits for `expected` of them). */
async function scriptCallsFor(
  prefix: string,
  expected: number,
  work: () => Promise<void>,
): Promise<string[][]> {
  const watcher = new Redis(TEST_REDIS_URL);
  const monitor = await watcher.monitor();
  const seen: string[][] = [];
  monitor.on("monitor", (_time: string, args: string[]) => {
    if (
      args.some((arg) => arg.startsWith(prefix)) &&
      ["eval", "evalsha"].includes(String(args[0]).toLowerCase())
    ) {
      seen.push(args.map(String));
    }
  });
  try {
    await work();
    await eventually(() => seen.length >= expected);
    return seen;
  } finally {
    monitor.disconnect();
    watcher.disconnect();
  }
}

describe.skipIf(skipWithoutRedis)("Lua scripts defined on a client", () => {
  const clients: Redis[] = [];
  const client = () => {
    const redis = new Redis(TEST_REDIS_URL);
    clients.push(redis);
    return redis;
  };
  let prefix = uniquePrefix("scripts");
  afterEach(async () => {
    const redis = client();
    await deleteKeys(redis, prefix);
    for (const c of clients.splice(0)) c.disconnect();
    prefix = uniquePrefix("scripts");
  });

  it("runs with its keys and arguments, and answers what the script returns", async () => {
    const redis = client();
    const echo = defineScript(redis, "ssTestEcho", `return {KEYS[1], ARGV[1], ARGV[2]}`);
    expect(await echo(1, `${prefix}:k`, "a", 2)).toEqual([`${prefix}:k`, "a", "2"]);
  });

  it("sends the turn journal's and the lock's script text once per connection, then only their SHA", async () => {
    const redis = client();
    const journal = createRedisTurnJournal({ redis, prefix });
    const lock = createRedisConversationLock({ redis, prefix, ttlMs: 5000 });
    const conversation = "default:106540352242922:2348070000001";
    // A begin, 4 records, a resume, a finish, 3 extends and 3 releases.
    const sent = await scriptCallsFor(prefix, 13, async () => {
      await journal.begin(conversation, { turnId: "t1", messages: [], startedAt: 1 });
      for (const step of ["a", "b", "c", "d"]) await journal.record(conversation, "t1", step, { step });
      const resumed = await journal.resume(conversation);
      expect([...(resumed?.steps.keys() ?? [])].sort()).toEqual(["a", "b", "c", "d"]);
      await journal.finish(conversation, "t1");
      for (let i = 0; i < 3; i += 1) {
        const token = await lock.acquire(conversation);
        expect(token).toBeDefined();
        expect(await lock.extend(conversation, token as string)).toBe(true);
        await lock.release(conversation, token as string);
      }
    });
    const calls = sent.map(([command]) => String(command).toLowerCase());
    expect(calls).toHaveLength(13);
    // Redis may already know a script (another client loaded it): EVAL only where it did not, at most once each.
    expect(calls.filter((command) => command === "eval").length).toBeLessThanOrEqual(6);
    const fullTexts = sent
      .filter(([command]) => String(command).toLowerCase() === "eval")
      .map(([, lua]) => lua);
    expect(new Set(fullTexts).size).toBe(fullTexts.length);
  });
});
