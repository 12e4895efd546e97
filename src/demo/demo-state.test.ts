import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  DEMO_PHONE_NUMBER_ID,
  demoFilePath,
  loadOrCreateDemoState,
  readDemoState,
  writeDemoState,
} from "./demo-state.js";
import { DemoError } from "./errors.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ss-demo-state-"));
  dirs.push(dir);
  return dir;
}

describe("the demo's state file", () => {
  it("makes secrets until written, then keeps them, in a 0600 file (creating the data directory)", () => {
    const dataDir = join(tempDir(), "nested", "data");
    let calls = 0;
    const randomBytes = (size: number) => Buffer.alloc(size, ++calls);
    const first = loadOrCreateDemoState(dataDir, { randomBytes, now: () => 0 });
    expect(first.created).toBe(true);
    expect(first.state.phoneNumberId).toBe(DEMO_PHONE_NUMBER_ID);
    expect(first.state.secrets.appSecret).toBe("01".repeat(16));
    expect(new Set(Object.values(first.state.secrets)).size).toBe(4);
    // Not written yet: a start that fails leaves nothing behind.
    expect(readDemoState(dataDir)).toBeUndefined();
    writeDemoState(dataDir, first.state);
    expect(statSync(demoFilePath(dataDir)).mode & 0o777).toBe(0o600);

    const second = loadOrCreateDemoState(dataDir, { randomBytes });
    expect(second).toEqual({ state: first.state, created: false });
    expect(calls).toBe(4);
  });

  it("is absent when there is no file", () => {
    expect(readDemoState(tempDir())).toBeUndefined();
  });

  it("refuses a file that is not the demo's, naming fields but never their values", () => {
    const dataDir = tempDir();
    writeFileSync(
      demoFilePath(dataDir),
      JSON.stringify({ version: 1, secrets: { appSecret: "short-secret" } }),
    );
    const error = (() => {
      try {
        readDemoState(dataDir);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(DemoError);
    expect((error as DemoError).code).toBe("SS_DEMO_STATE");
    expect((error as DemoError).message).toMatch(/secrets\.appSecret.*delete it/);
    expect((error as DemoError).message).not.toContain("short-secret");
  });

  it("refuses a file that is not JSON", () => {
    const dataDir = tempDir();
    writeFileSync(demoFilePath(dataDir), "{");
    expect(() => readDemoState(dataDir)).toThrow(/is not JSON/);
  });
});
