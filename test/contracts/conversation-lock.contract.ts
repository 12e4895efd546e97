import { describe, expect, it } from "vitest";
import type { ConversationLock } from "../../src/conversation/index.js";
import { sleep } from "../support/contract-backends.js";

/** The behaviour every ConversationLock adapter must have; `open` gives a fresh lock with this lease, ms. */
export function describeConversationLockContract(
  name: string,
  open: (ttlMs: number) => Promise<ConversationLock>,
): void {
  describe(`ConversationLock contract: ${name}`, () => {
    const key = "shop:106540352242922:2348012345678";

    it("lets one holder at a time take a conversation, and others take other conversations", async () => {
      const lock = await open(30_000);
      const first = await lock.acquire(key);
      expect(first).toEqual(expect.any(String));
      expect(await lock.acquire(key)).toBeUndefined();
      const other = await lock.acquire(`${key}-2`);
      expect(other).toEqual(expect.any(String));
      expect(other).not.toBe(first);
    });

    it("is freed by its own token only", async () => {
      const lock = await open(30_000);
      const token = (await lock.acquire(key)) as string;
      await lock.release(key, "not-the-token");
      expect(await lock.acquire(key)).toBeUndefined();
      await lock.release(key, token);
      const next = await lock.acquire(key);
      expect(next).toEqual(expect.any(String));
      // Releasing twice, or after another took it, leaves the new holder alone.
      await lock.release(key, token);
      expect(await lock.acquire(key)).toBeUndefined();
    });

    it("expires a lease after ttlMs; the old holder's release then leaves the new holder alone", async () => {
      const lock = await open(200);
      const old = (await lock.acquire(key)) as string;
      await sleep(50);
      expect(await lock.acquire(key)).toBeUndefined();
      await sleep(200);
      const fresh = await lock.acquire(key);
      expect(fresh).toEqual(expect.any(String));
      await lock.release(key, old);
      expect(await lock.acquire(key)).toBeUndefined();
    });

    it("is kept by renewing it past its ttl, by its own token only; a lapsed lease cannot be renewed", async () => {
      const lock = await open(200);
      expect(lock.ttlMs).toBe(200);
      const token = (await lock.acquire(key)) as string;
      for (let tick = 0; tick < 4; tick += 1) {
        await sleep(100);
        expect(await lock.extend(key, token)).toBe(true);
      }
      expect(await lock.acquire(key)).toBeUndefined();
      expect(await lock.extend(key, "not-the-token")).toBe(false);
      await sleep(300);
      expect(await lock.extend(key, token)).toBe(false);
      expect(await lock.acquire(key)).toEqual(expect.any(String));
    });
  });
}
