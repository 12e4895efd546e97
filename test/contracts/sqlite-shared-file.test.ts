import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSqlitePendingActions, createSqliteTokenBudget } from "../../src/agent/embedded/index.js";
import { createSqliteConversationState } from "../../src/conversation/embedded/index.js";
import { createSqliteDeliveryStatusStore } from "../../src/delivery/embedded/index.js";
import { createSqliteSendOrder, createSqliteTenantSendPause } from "../../src/outbound/embedded/index.js";
import { openSqliteDatabase } from "../../src/sqlite/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every embedded adapter on one database, as embedded mode wires them. */
function openAll(dataDir: string) {
  const db = openSqliteDatabase({ dataDir });
  return {
    db,
    delivery: createSqliteDeliveryStatusStore({ db }),
    state: createSqliteConversationState({ db }),
    pending: createSqlitePendingActions({ db }),
    budget: createSqliteTokenBudget({ db }),
    pause: createSqliteTenantSendPause({ db }),
    order: createSqliteSendOrder({ db }),
  };
}

describe("embedded adapters on one SQLite file", () => {
  it("share the file without clashing, and keep their data across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ss-shared-"));
    dirs.push(dir);
    const first = openAll(dir);
    await first.delivery.applyStatus({ tenantId: "t", wamid: "w", status: "delivered", timestamp: 1 });
    await first.state.append("c", [{ at: 1, from: "customer", type: "text", text: "hi" }]);
    await first.state.setMode("c", "human");
    const action = await first.pending.create(
      "c",
      { toolName: "x", args: {}, idempotencyKey: "k", summary: "s", createdAt: 1 },
      60_000,
    );
    await first.budget.record("t", 42);
    await first.pause.pause("t", 60_000);
    await first.order.assign("t", "c", ["j1", "j2"]);
    first.db.close();

    const second = openAll(dir);
    try {
      expect(await second.delivery.get("t", "w")).toMatchObject({ status: "delivered" });
      expect((await second.state.recent("c")).map((e) => e.text)).toEqual(["hi"]);
      expect(second.state.isUrgent("c", Date.now())).toBe(true);
      expect(await second.pending.claim("c", action.id, "m")).toMatchObject({ kind: "claimed" });
      expect(await second.budget.spentToday("t")).toBe(42);
      expect(await second.pause.remainingMs("t")).toBeGreaterThan(50_000);
      expect(await second.order.peek("t", "c")).toEqual({ next: 1, jobId: "j1" });
      const tables = second.db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all()
        .map((row) => (row as { name: string }).name);
      expect(tables.every((name) => /^(delivery|conversation|agent|outbound)_|^ss_meta$/.test(name))).toBe(
        true,
      );
    } finally {
      second.db.close();
    }
  });
});
