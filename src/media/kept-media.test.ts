import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMediaKeeper } from "./kept-media.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("kept media", () => {
  it("keeps bytes by content under the tenant and day, and retention deletes whole past days only", async () => {
    const root = mkdtempSync(join(tmpdir(), "ss-kept-"));
    dirs.push(root);
    let clock = Date.parse("2026-12-01T10:00:00Z");
    const keeper = createMediaKeeper(root, () => clock);
    const reading = {
      kind: "audio" as const,
      mediaId: "m1",
      mimeType: "audio/ogg; codecs=opus",
      sha256: "AAEC",
    };
    const first = await keeper.keep("acme", reading, Buffer.from("voice"));
    expect(first).toBe(join(root, "acme", "2026-12-01", "000102.ogg"));
    expect(readFileSync(first, "utf8")).toBe("voice");
    clock = Date.parse("2026-12-03T10:00:00Z");
    const second = await keeper.keep("acme", { ...reading, sha256: "AAED" }, Buffer.from("later"));
    // Cut off at the start of 2 December: the first of December ended before it, the third did not.
    expect(await keeper.purgeOlderThan("acme", Date.parse("2026-12-02T00:00:00Z"))).toBe(1);
    expect(existsSync(first)).toBe(false);
    expect(existsSync(second)).toBe(true);
    expect(await keeper.purgeOlderThan("nobody", Date.now())).toBe(0);
  });

  it("refuses a tenant id that is not a plain folder name", async () => {
    const root = mkdtempSync(join(tmpdir(), "ss-kept-"));
    dirs.push(root);
    const keeper = createMediaKeeper(root);
    await expect(keeper.keep("../etc", { kind: "image", mediaId: "m" }, Buffer.from("x"))).rejects.toThrow(
      TypeError,
    );
  });
});
