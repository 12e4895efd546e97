import { defineConfig } from "vitest/config";

// The fault suite (`npm run test:faults`): real gateway processes, one scenario file at a time.
export default defineConfig({
  test: {
    include: ["test/faults/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: false,
  },
});
