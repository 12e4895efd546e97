/**
 * The demo tests run exactly as `npm start` does on a fresh machine:
 * embedded mode (no REDIS_URL), SQLite in each test's SHARPSHARP_DATA_DIR.
 */
export interface DemoBackend {
  /** Variables for the demo's environment (none: embedded mode). */
  readonly env: Readonly<Record<string, string>>;
  cleanup(): Promise<void>;
}

/** Embedded mode needs no service, so the demo suites never skip. */
export const skipWithoutDemoBackend = false;

export function demoBackend(_label: string): DemoBackend {
  return { env: {}, cleanup: async () => {} };
}
