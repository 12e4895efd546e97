import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedBackend } from "../../src/app/backends/embedded.js";
import type { TenantConfig } from "../../src/config/index.js";
import {
  createTurnProcessor,
  type Responder,
  type TurnInput,
  type TurnJournal,
} from "../../src/conversation/index.js";
import { createTurnMediaReader, resolveMediaSettings } from "../../src/media/index.js";
import { createLogger } from "../../src/observability/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";
import { embeddedEnvConfig } from "../support/embedded-config.js";
import { RECEIPT_PNG } from "../support/receipt-fixture.js";

const logger = createLogger({ level: "silent" });
const PHONE = "106540352242922";
const ME = "2348012345678";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The embedded backend's real journal, with every value it is given written down as the journal stores it (JSON). */
function journalWritingDown(journal: TurnJournal): TurnJournal & { readonly written: string[] } {
  const written: string[] = [];
  return {
    written,
    begin: async (key, turn) => {
      written.push(JSON.stringify(turn));
      await journal.begin(key, turn);
    },
    resume: (key) => journal.resume(key),
    record: async (key, turnId, step, value) => {
      written.push(JSON.stringify(value));
      await journal.record(key, turnId, step, value);
    },
    release: (key, turnId) => journal.release(key, turnId),
    finish: (key, turnId) => journal.finish(key, turnId),
    setAside: (key, turnId, reason) => journal.setAside(key, turnId, reason),
    setAsideTurns: (limit) => journal.setAsideTurns(limit),
  };
}

describe("a turn's pictures and the turn journal (embedded)", () => {
  it("the agent gets this run's picture; the journal never holds its bytes; a resumed turn answers from the reading without downloading again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ss-media-journal-"));
    const config = embeddedEnvConfig("http://127.0.0.1:9", dir);
    const backend = createEmbeddedBackend(config, { logger, housekeepingMs: 60_000 });
    cleanups.push(async () => {
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    });
    await backend.ingress.status.whenReady();
    const worker = backend.worker();
    const tenant: TenantConfig = {
      ...(config.tenants[0] as TenantConfig),
      settings: { media: { vision: true } },
    };
    let downloads = 0;
    const media = createTurnMediaReader({
      settings: resolveMediaSettings,
      download: async () => {
        downloads += 1;
        return {
          bytes: RECEIPT_PNG,
          mimeType: "image/png",
          size: RECEIPT_PNG.length,
          sha256: createHash("sha256").update(RECEIPT_PNG).digest("base64"),
        };
      },
      transcriber: () => undefined,
      readImage: async () => ({
        description: "Payment receipt: NGN 15,000.00",
        receipt: { amount: { value: 15000, currency: "NGN" } },
      }),
      failureOf: () => ({ code: "failed", reason: "failed" }),
      logger,
      now: Date.now,
    });
    // The first run dies after the agent was given the turn; the second answers.
    const turns: TurnInput[] = [];
    const responder: Responder = {
      async respond(turn) {
        turns.push(turn);
        if (turns.length === 1) throw new Error("the worker died mid-turn");
        return [{ text: "answered" }];
      },
      async respondToStale() {
        return [];
      },
    };
    const journal = journalWritingDown(worker.turnJournal);
    const processTurn = createTurnProcessor({
      inbox: worker.inbox,
      outbound: worker.outboundQueue,
      responder,
      tenant: () => tenant,
      journal,
      media,
      logger,
      now: Date.now,
    });
    const at = Date.now();
    const picture: InboundMessage = {
      tenantId: tenant.id,
      phoneNumberId: PHONE,
      wabaId: "1",
      conversationKey: `${tenant.id}:${PHONE}:${ME}`,
      wamid: `wamid.picture.${process.pid}`,
      timestamp: Math.floor(at / 1000),
      receivedAt: at,
      type: "image",
      customer: { waId: ME },
      content: { id: "media-1", mime_type: "image/png" },
    };
    await backend.ingress.inbound.enqueue({ messages: [picture], events: [] });
    const job = { tenantId: tenant.id, conversationKey: picture.conversationKey };

    await expect(processTurn(job)).rejects.toThrow("died mid-turn");
    const dataUrl = `data:image/png;base64,${RECEIPT_PNG.toString("base64")}`;
    expect(turns[0]?.images?.[picture.wamid]).toEqual({ dataUrl, size: RECEIPT_PNG.length });
    const base64 = RECEIPT_PNG.toString("base64").slice(1000, 1100);
    expect(journal.written.some((value) => value.includes("Payment receipt: NGN 15,000.00"))).toBe(true);
    expect(journal.written.filter((value) => value.includes(base64))).toEqual([]);

    const again = await processTurn(job);
    expect(again).toMatchObject({ kind: "handled", turns: [{ resumed: true, replies: 1 }] });
    expect(downloads).toBe(1);
    expect(turns[1]?.images).toBeUndefined();
    expect(turns[1]?.messages[0]?.reading).toMatchObject({
      description: "Payment receipt: NGN 15,000.00",
      receipt: { amount: { value: 15000, currency: "NGN" } },
    });
  });
});
