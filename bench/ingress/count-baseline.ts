/**
 * Counts the jobs the naive baseline enqueued under a prefix (BullMQ getJobCounts over every state), to
 * compare with the distinct messages the load generator sent. With --delete, then removes every Redis key
 * under the prefix (SCAN + UNLINK).
 *
 *   node dist/bench/ingress/count-baseline.js --prefix bench-base-123 [--redis URL] [--queue inbound] [--delete]
 *
 * Prints one human line and one JSON line.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { BASELINE_QUEUE_NAME } from "../baselines/naive-ingress.js";

export interface BaselineCount {
  prefix: string;
  queue: string;
  counts: Record<string, number>;
  /** Jobs in any state: with jobId = wamid, the distinct messages enqueued. */
  total: number;
}

export async function countBaselineJobs(
  redisUrl: string,
  prefix: string,
  queueName = BASELINE_QUEUE_NAME,
): Promise<BaselineCount> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName, { connection, prefix });
  try {
    const counts = await queue.getJobCounts();
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return { prefix, queue: queueName, counts, total };
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** Delete every key starting with `${prefix}:`; returns how many went. */
export async function deletePrefixKeys(redisUrl: string, prefix: string): Promise<number> {
  if (prefix.length === 0 || /[*?[\]]/.test(prefix))
    throw new Error(`refusing to delete by prefix "${prefix}"`);
  const redis = new Redis(redisUrl);
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return deleted;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      redis: { type: "string", default: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
      prefix: { type: "string" },
      queue: { type: "string", default: BASELINE_QUEUE_NAME },
      delete: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (!values.prefix) throw new Error("--prefix is required");
  const result = await countBaselineJobs(values.redis, values.prefix, values.queue);
  const detail = Object.entries(result.counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}=${n}`)
    .join(" ");
  process.stdout.write(
    `baseline jobs under ${result.prefix}:${result.queue}: ${result.total} (${detail || "none"})\n`,
  );
  let deletedKeys: number | null = null;
  if (values.delete) {
    deletedKeys = await deletePrefixKeys(values.redis, values.prefix);
    process.stdout.write(`deleted ${deletedKeys} keys under ${values.prefix}:\n`);
  }
  process.stdout.write(`${JSON.stringify({ ...result, deletedKeys })}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`count-baseline: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
