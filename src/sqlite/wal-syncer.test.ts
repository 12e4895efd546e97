import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWalSyncer } from "./wal-syncer.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("createWalSyncer", () => {
  it("shares one flush among the calls made while another runs, and closes after the one in progress", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ss-wal-"));
    dirs.push(dir);
    const path = join(dir, "x-wal");
    writeFileSync(path, "frames");
    const syncer = createWalSyncer(path);
    const results = await Promise.all(Array.from({ length: 20 }, () => syncer.sync()));
    expect(results).toHaveLength(20);
    const last = syncer.sync();
    await syncer.close();
    await expect(last).resolves.toBeUndefined();
  });
});
