/**
 * Counts what sharpsharp's ingress recorded under a prefix: distinct message ids
 * (dedupe marks), messages waiting in inboxes, conversations and turn jobs.
 * With --delete, then removes every key under the prefix.
 *
 *   node dist/bench/ingress/count-sharpsharp.js --prefix bench-ss-123 [--redis URL] [--delete]
 *
 * Prints one human line and one JSON line ({ total: distinct messages recorded, … }).
 */
import { parseArgs } from "node:util";
import { Queue } from "bullmq";
import { Redis } from "ioredis";

const { values } = parseArgs({
  options: {
    prefix: { type: "string" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
    delete: { type: "boolean", default: false },
  },
});
if (values.prefix === undefined) throw new Error("--prefix is required");
const prefix = values.prefix;
const redis = new Redis(values.redis, { maxRetriesPerRequest: null });

async function scanCount(pattern: string, remove: boolean): Promise<number> {
  let cursor = "0";
  let count = 0;
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 5000);
    cursor = next;
    count += keys.length;
    if (remove && keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== "0");
  return count;
}

const turns = new Queue("turns", { connection: redis, prefix });
const turnCounts = await turns.getJobCounts();
await turns.close();
const result = {
  prefix,
  total: await scanCount(`${prefix}:wamid:*`, false),
  inboxMessages: Number((await redis.hget(`${prefix}:stats`, "inbox")) ?? 0),
  conversations: await redis.zcard(`${prefix}:inboxes`),
  turnJobs: Object.values(turnCounts).reduce((a, b) => a + b, 0),
};
process.stdout.write(
  `recorded ${result.total} distinct messages, ${result.inboxMessages} in inboxes, ` +
    `${result.conversations} conversations, ${result.turnJobs} turn jobs\n${JSON.stringify(result)}\n`,
);
if (values.delete) await scanCount(`${prefix}:*`, true);
redis.disconnect();
