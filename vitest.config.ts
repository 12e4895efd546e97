import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The fault suite has its own command and config (vitest.faults.config.ts).
    exclude: [...configDefaults.exclude, "test/faults/**"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Integration tests share one Redis; each uses its own key prefix, so files may run in parallel.
    pool: "forks",
  },
});
