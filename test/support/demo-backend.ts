import { Redis } from "ioredis";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "./redis.js";

/**
 * The one place the demo tests pick the gateway's queue backend. Today
 * `startAll` needs Redis, so each test gets REDIS_URL and a unique
 * REDIS_PREFIX (deleted afterwards). Once embedded mode lands (no REDIS_URL:
 * SQLite in SHARPSHARP_DATA_DIR), flip EMBEDDED to true: the demo then runs
 * exactly as `npm start` does on a fresh machine.
 */
const EMBEDDED = false;

export interface DemoBackend {
  /** Variables for the demo's environment (empty in embedded mode). */
  readonly env: Readonly<Record<string, string>>;
  cleanup(): Promise<void>;
}

/** Skip the suites that start a demo when its backend is missing (never in CI; see redis.ts). */
export const skipWithoutDemoBackend = EMBEDDED ? false : skipWithoutRedis;

export function demoBackend(label: string): DemoBackend {
  if (EMBEDDED) return { env: {}, cleanup: async () => {} };
  const prefix = uniquePrefix(label);
  return {
    env: { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix },
    async cleanup() {
      const admin = new Redis(TEST_REDIS_URL);
      try {
        await deleteKeys(admin, prefix);
      } finally {
        admin.disconnect();
      }
    },
  };
}
